#pragma once
// Runs one operation on each chosen backend: a warm-up call (page faults, thread pool
// start-up), then `repeat` timed calls whose median is reported, since the median
// ignores the odd run disturbed by the rest of the machine.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <preduce/preduce.hpp>

#include "dataset.hpp"
#include "operation.hpp"

namespace preduce_cli {

struct result_value {
    std::variant<std::int64_t, std::uint64_t, float, double> value;
    std::optional<std::size_t> index;  // argmin/argmax only; preduce::no_index for an empty input
    double as_double() const;
};

struct backend_result {
    preduce::backend backend;
    std::string label;              // e.g. "openmp(2 threads)"
    result_value result;
    double median_s = 0;
    std::optional<double> error;    // result - exact sum, floating-point sums only
};

// The exact reference of a floating-point sum and the rounding error allowed to it.
struct sum_reference {
    double exact;    // the exact sum, rounded once to double
    double sum_abs;  // sum |x_i|
    double bound;    // (n - 1) * u * sum |x_i|, Higham's bound for any summation order
};

struct run_summary {
    operation op;
    std::string type_name;  // "float32", ...
    std::uint64_t n = 0;
    std::uint64_t bytes = 0;
    std::optional<sum_reference> reference;
    std::vector<backend_result> results;
};

struct run_settings {
    std::vector<preduce::backend> backends;
    int threads = 0;  // 0: each backend's default
    int repeat = 9;
};

run_summary run_all(const dataset& data, const operation& op, const run_settings& settings);

} // namespace preduce_cli
