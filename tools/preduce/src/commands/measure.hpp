#pragma once
// Runs one operation on each chosen backend (timing.hpp: a warm-up call, then the median
// of `repeat` timed calls), and what the report needs of the results.
#include <cstdint>
#include <optional>
#include <type_traits>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include <preduce/preduce.hpp>

#include "input/dataset.hpp"
#include "commands/operation.hpp"

namespace preduce_cli {

// One number in the type it was computed in, so that printing it loses nothing: the
// min, max, argmin/argmax value and minmax of float16 and bfloat16 data keep their 16 bits.
using scalar = std::variant<std::int64_t, std::uint64_t, float, double, preduce::float16, preduce::bfloat16>;

// A backend's result; which members are set follows operation::shape().
struct result_value {
    scalar value;                      // scalar ops; the value argmin/argmax found
    std::optional<std::size_t> index;  // argmin/argmax only; preduce::no_index for an empty input
    std::optional<scalar> min, max;    // minmax only
    std::optional<preduce::moments_result> moments;  // moments only
    double as_double() const;          // of value
};

// A preduce result as a result_value.
template <class R>
    requires(std::is_arithmetic_v<R> || is_half_v<R>)
inline scalar to_scalar(R r) {
    if constexpr (is_floating_v<R>) return r;
    else if constexpr (std::is_signed_v<R>) return static_cast<std::int64_t>(r);
    else return static_cast<std::uint64_t>(r);
}

template <class R>
    requires(std::is_arithmetic_v<R> || is_half_v<R>)
inline result_value to_result(R r) {
    result_value out;
    out.value = to_scalar(r);
    return out;
}

template <class T>
inline result_value to_result(const preduce::arg_result<T>& r) {
    result_value out;
    out.value = to_scalar(r.value);
    out.index = r.index;
    return out;
}

template <class T>
inline result_value to_result(const preduce::minmax_result<T>& r) {
    result_value out;
    out.value = to_scalar(r.min);
    out.min = to_scalar(r.min);
    out.max = to_scalar(r.max);
    return out;
}

inline result_value to_result(const preduce::moments_result& r) {
    result_value out;
    out.value = r.mean;
    out.moments = r;
    return out;
}

// A floating-point result's bits in hex ("0x3f800000" for 1.0f, "0x3c00" for a float16 1).
std::string bits_text(const scalar& v);

// The bits of a float16 or bfloat16 result, which the report shows beside its value (a
// minmax: "0xMIN/0xMAX"); nothing for other types and for an empty argmin/argmax.
std::optional<std::string> half_bits(result_shape shape, const result_value& r);

// What the report shows of one backend's results in a mode with many results per call
// (many_results_mode.hpp): their number, a few of them, and hashes of all of them.
struct many_results {
    std::uint64_t count = 0;
    std::vector<result_value> first;  // the first 3 results (fewer if there are fewer)
    std::vector<result_value> last;   // the last 3 after those: first + last are all when count <= 6
    std::vector<scalar> first_keys, last_keys;  // --keys: the keys of the same runs
    std::string sha256;               // of the bytes PREFIX.<backend>.npy holds after its header
    std::optional<std::string> index_sha256;  // argmin/argmax: of the .index.npy data
    std::optional<std::string> keys_sha256;   // --keys: of the .keys.npy data
};

struct backend_result {
    preduce::backend backend;
    std::string label;              // e.g. "openmp(2 threads)"
    result_value result;            // whole-array mode
    double median_s = 0;
    std::optional<double> error;    // result - exact value, floating-point sums only
    std::optional<std::string> bits;  // the result's bits in hex, floating-point sums only
    std::optional<many_results> many;  // modes with many results per call
};

// Which many-results mode ran, and over what (many_results_mode.hpp).
struct segmented_run {
    std::string mode;                         // "axis", "segments", "segment_size" or "keys"
    std::string description;                  // for the table's first line
    std::vector<std::uint64_t> shape;         // axis: the input's shape
    std::vector<int> axes;                    // axis: the reduced axes, 0 .. rank - 1
    std::vector<std::uint64_t> result_shape;  // axis: the kept axes (NumPy's x.<op>(axis).shape)
    std::uint64_t segment_size = 0;           // segment_size
    std::string keys_type;                    // keys: "int64", ...
};

// The exact reference of a floating-point sum (of x, |x|, x^2 or x*y: operation::is_sum_like)
// and the rounding error allowed to it.
struct sum_reference {
    double exact;     // the exact value, rounded once to double
    double sum_abs;   // sum |t_i| of the terms t_i summed (x_i, |x_i|, x_i^2, x_i*y_i)
    double bound;     // (n - 1) * u * sum |x_i| for sums (Higham; Rump: any order), and
                      // n * u * sum |x_i*y_i| for sumsq and dot, whose products round too
                      // (Jeannerod and Rump, any order); u of the accumulator type
    std::string what;     // "sum", "sum|x|", "sum x^2", "dot"
    std::string formula;  // "(n-1)*u*sum|x|", ...
    std::string source;   // "Higham", "Jeannerod-Rump"
};

struct run_summary {
    operation op;
    std::string type_name;  // "float32", ...
    std::uint64_t n = 0;
    std::uint64_t bytes = 0;  // read per call: both inputs for dot
    std::optional<sum_reference> reference;
    std::vector<backend_result> results;
    preduce::precision precision = preduce::precision::fast;
    // Floating-point sums: every result has the bits of the first backend's.
    std::optional<bool> bit_identical;
    std::optional<segmented_run> segmented;  // set in modes with many results per call
    std::optional<bool> identical;           // those modes: every backend's hashes are the first's
};

// What every mode knows of a run before any backend runs: the op, the element type T, n, and
// the bytes a call reads (both inputs for dot).
template <class T>
run_summary summary_for(const operation& op, std::size_t n, bool two_inputs) {
    run_summary s;
    s.op = op;
    s.type_name = preduce::detail::type_name<T>();
    s.n = n;
    s.bytes = n * sizeof(T) * (two_inputs ? 2 : 1);
    return s;
}

// f(x, y) for the element type the data hold: x the input, y the second input (nullptr for the
// one-input ops). The caller checked that a second input has x's type and length (std::get
// throws otherwise).
template <class F>
decltype(auto) visit_inputs(const dataset& data, const dataset* second, const operation& op, F&& f) {
    if (op.is_binary() != (second != nullptr)) throw std::logic_error("internal: dot takes two inputs, others one");
    return std::visit(
        [&](const auto& v) {
            using T = typename std::decay_t<decltype(v)>::value_type;
            const std::vector<T>* y = second ? &std::get<std::vector<T>>(*second) : nullptr;
            return f(v, y);
        },
        data);
}

struct run_settings {
    std::vector<preduce::backend> backends;
    int threads = 0;  // 0: each backend's default
    int repeat = 9;
    preduce::precision precision = preduce::precision::fast;
    std::optional<std::string> output_prefix;  // --output: write each backend's results (result_files.hpp)
};

// The label of a backend's row: describe(b, opts), and for backend::automatic the backend it
// chooses for this data, e.g. "auto -> openmp(2 threads)".
std::string label_of(preduce::backend b, const preduce::options& opts, const void* data, std::size_t bytes,
                     preduce::operation_family family);

// The family of automatic's rules for op over elements of T (dot over pairs of T).
template <class T, class Op>
preduce::operation_family family_of(const Op& op) {
    if constexpr (std::is_same_v<Op, preduce::dot_op>) return preduce::operation_family_of<preduce::zip_value<T, T>>(op);
    else return preduce::operation_family_of<T>(op);
}

// `second` is dot's y (same type and length as data, checked by the caller), else null.
run_summary run_all(const dataset& data, const dataset* second, const operation& op, const run_settings& settings);

} // namespace preduce_cli
