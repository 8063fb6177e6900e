#pragma once
// Many results per call: --axis, --segments, --segment-size and --keys, run through
// preduce's reduce_axes, reduce_segments, reduce_batches and reduce_by_key on every chosen
// backend, timed like a whole-array run.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "input/dataset.hpp"
#include "input/element_type.hpp"
#include "commands/measure.hpp"
#include "commands/operation.hpp"

namespace preduce_cli {

enum class segment_mode {
    axis,        // --axis K[,K...]: NumPy's x.<op>(axis=...), results in C order over the kept axes
    offsets,     // --segments FILE: segment i = [offsets[i], offsets[i + 1])
    fixed_size,  // --segment-size K: n / K segments of K elements
    keys,        // --keys FILE: one result per run of equal consecutive keys
};

// What the flags ask for, before any file is read.
struct segment_request {
    segment_mode mode = segment_mode::axis;
    std::vector<int> axes;                  // axis: as typed (negative ones count from the end)
    std::string file;                       // offsets, keys: the file to read
    std::uint64_t size = 0;                 // fixed_size: at least 1
    std::optional<element_type> keys_type;  // keys: the type of raw or text keys
};

// The flag that selects a mode, for messages ("--axis", ...).
const char* flag_of(segment_mode mode);

// The request with its file read and checked against the data (n values of the input named
// data_name, of this shape): the offsets or keys themselves, the axes counted from 0.
struct segment_plan {
    segment_mode mode = segment_mode::axis;
    std::vector<std::uint64_t> shape;    // axis
    std::vector<int> axes;               // axis: 0 .. rank - 1, in the order given
    std::vector<std::uint64_t> offsets;  // offsets
    std::uint64_t size = 0;              // fixed_size
    std::optional<key_dataset> keys;     // keys, narrow ones widened (dataset.hpp)
    std::uint64_t count = 0;             // results per backend (keys: known after the run)
    segmented_run info;                  // what the report says about the mode
};

// Throws usage_error (an axis out of range or repeated, a size that does not divide n) or
// input_error (an unreadable file, offsets that decrease or pass n, keys of another length).
segment_plan plan_segments(const segment_request& request, const std::vector<std::uint64_t>& shape,
                           std::uint64_t n, const std::string& data_name);

// Runs the plan on every backend of `settings`; `second` is dot's y (same type and length),
// else null. Writes each backend's results with settings.output_prefix (result_files.hpp).
run_summary run_segmented(const dataset& data, const dataset* second, const segment_plan& plan, const operation& op,
                          const run_settings& settings);

} // namespace preduce_cli
