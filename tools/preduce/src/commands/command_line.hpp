#pragma once
// The flags, as CLI11 sees them (text), and the checked settings built from them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <preduce/preduce.hpp>

#include "commands/calibrate.hpp"
#include "input/element_type.hpp"
#include "input/load_input.hpp"
#include "commands/operation.hpp"
#include "output/report.hpp"
#include "commands/many_results_mode.hpp"

namespace preduce_cli {

inline constexpr std::uint64_t default_n = std::uint64_t(1) << 24;  // 64 MiB of floats: past every cache
inline constexpr std::uint64_t default_seed = 42;
inline constexpr int default_repeat = 9;

// Numbers are taken as text and parsed by us: CLI11 2.1 reads "-1" into an unsigned
// as 2^64 - 1 and "010" as octal, and neither should pass silently.
struct flags {
    std::optional<std::string> input, input2, format_in, type, n, seed, pred, threads, repeat;
    std::optional<std::string> axis, segments, segment_size, keys, keys_type, output, calibration_file, calibrate_max;
    std::string op = "sum";
    std::vector<std::string> backends{"all"};
    std::string format = "table";
    std::string precision = "fast";
    bool list_backends = false;
    bool mpi = false;
    bool calibrate = false;
};

struct settings {
    std::optional<std::string> input;
    std::optional<std::string> input2;  // dot's second input; only with input
    input_format format_in = input_format::automatic;
    std::optional<element_type> type;
    std::uint64_t n = default_n;
    std::uint64_t seed = default_seed;
    operation op;
    std::vector<preduce::backend> backends;
    int threads = 0;
    int repeat = default_repeat;
    output_format format = output_format::table;
    preduce::precision precision = preduce::precision::fast;
    bool list_backends = false;
    bool mpi = false;  // under mpirun: preduce::mpi over the ranks (mpi_mode.hpp)
    std::optional<segment_request> segments;  // many results per call (many_results_mode.hpp)
    std::optional<std::string> output;        // --output PREFIX (result_files.hpp)
    std::optional<calibrate_settings> calibrate;  // --calibrate (calibrate.hpp)
};

void define_flags(CLI::App& app, flags& f);

// Checks what CLI11 cannot (numbers, predicates, backends); throws usage_error.
settings to_settings(const flags& f);

} // namespace preduce_cli
