#pragma once
// backend::automatic: the front end picks, per call, the backend that is fastest for where
// the data lives and how many bytes the call reads.
//   - CUDA device memory goes to cuda (no other backend can read it), and so does CUDA
//     managed memory when cuda is usable (the GPU reads it in place);
//   - host memory (pageable, or pinned by CUDA) goes to the backend of the rule that
//     covers the call's bytes: from a calibration file when one is found, else from the
//     defaults below. Over the range of a rule whose backend is not usable here, the
//     defaults decide.
// Every built-in operation reads its input once and is memory-bound, so crossovers in bytes
// read serve every element type. The operations come in two families whose host loops differ
// (adds against compares), so a calibration may hold rules for each: the sums (sum, prod,
// sumsq, asum, dot, count_if, mean, variance, moments) and the comparisons (min, max, minmax,
// argmin, argmax), which take the sums' rules where they have none of their own.
// `preduce --calibrate` measures both on the machine (sum and argmin of float32, median call on
// the host clock, on data that is not in cache).
//
// The calibration file (JSON, written by preduce --calibrate) is read once per process,
// from $PREDUCE_CALIBRATION when set, else $XDG_CACHE_HOME/preduce/calibration.json, else
// $HOME/.cache/preduce/calibration.json. A missing file means the defaults; a file that
// cannot be read or parsed also means the defaults, and describe(backend::automatic) and
// every choice's reason say why. Where a file should have been used and was not (it cannot
// be read or parsed, or $PREDUCE_CALIBRATION names one that does not exist), reading it also
// writes one warning line to stderr and sets calibration::warning; the per-user cache file's
// absence, the state before any preduce --calibrate, warns nowhere.
//
// Defaults: host calls reading under 256 bytes go to seq, larger ones to openmp when it is
// usable (its inputs under 32K elements run on the calling thread), else to seq. Below 64
// floats seq's plain loop starts sooner than openmp's SIMD fold; from 64 floats openmp is
// ahead. The GPU is never chosen for host memory by default: reading pageable or pinned
// memory over the host link was slower than the CPU backends at every size measured
// (docs/front-end-costs.md).
//
// Results: under precision::deterministic and compensated every backend gives the same
// bits, so the choice never changes them; under fast, the result is the chosen backend's.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "preduce/backend.hpp"
#include "preduce/options.hpp"

namespace preduce {

// What backend::automatic runs for one call, and why, in words.
struct automatic_choice {
    backend chosen;
    std::string reason;
};

// The two families of operations that calibration rules tell apart (see the top of this file).
enum class operation_family { sums, comparisons };

// The choice for a call of an operation of `family` that reads `bytes` bytes (all of its
// arrays together) from arrays the first of which starts at `data`; without a family, a sum's.
automatic_choice choose_automatic(const void* data, std::size_t bytes, operation_family family,
                                  const options& opts = {});
automatic_choice choose_automatic(const void* data, std::size_t bytes, const options& opts = {});

// One rule: calls reading fewer than below_bytes bytes (and more than the rule before)
// go to `chosen`. The last rule of a list has below_bytes = UINT64_MAX.
struct calibration_rule {
    std::uint64_t below_bytes;
    backend chosen;
};

// Rules per host residency, and where they came from: the sums' rules, which are every
// operation's where the comparisons have none of their own (comparisons_* empty).
struct calibration {
    std::vector<calibration_rule> pageable;
    std::vector<calibration_rule> pinned;
    std::vector<calibration_rule> comparisons_pageable;
    std::vector<calibration_rule> comparisons_pinned;
    std::string source;   // "defaults", or the file they were read from
    std::string warning;  // why a calibration file was not used, where one should have been
};

// Where the calibration file is looked for (see the top of this file).
std::string calibration_path();

// The calibration backend::automatic uses: the file's, or the defaults (with the reason
// the file was not used in `source`).
calibration current_calibration();

// Reads the calibration file again (after preduce --calibrate has written it).
void reload_calibration();

// The rules as the calibration file holds them (JSON), with `measured` (free-form JSON text
// of the measurements behind them, or empty) stored beside them; and the inverse, which
// throws preduce::invalid_argument naming what is wrong.
std::string calibration_to_json(const calibration& c, const std::string& measured = "");
calibration calibration_from_json(const std::string& text, const std::string& source);

namespace detail {
// choose_automatic(...).chosen without composing the reason: what the front end's routing
// asks on every call with backend::automatic; on_host says the data was found not to be
// CUDA device memory (so a host backend need not ask again).
struct automatic_route {
    backend chosen;
    bool on_host;
};
automatic_route automatic_backend(const void* data, std::size_t bytes, operation_family family,
                                  const options& opts);
} // namespace detail

} // namespace preduce
