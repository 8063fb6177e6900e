#include "measure.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <type_traits>

#include <preduce/detail/exact_sum.hpp>

namespace preduce_cli {
namespace {

template <class R>
    requires std::is_arithmetic_v<R>
result_value to_result(R r) {
    if constexpr (std::is_floating_point_v<R>) return {r, std::nullopt};
    else if constexpr (std::is_signed_v<R>) return {static_cast<std::int64_t>(r), std::nullopt};
    else return {static_cast<std::uint64_t>(r), std::nullopt};
}

template <class T>
result_value to_result(const preduce::arg_result<T>& r) {
    result_value out = to_result(r.value);
    out.index = r.index;
    return out;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

template <class T, class Op>
backend_result measure(preduce::backend b, const std::vector<T>& data, const Op& op, const run_settings& s) {
    const preduce::options opts{.threads = s.threads};
    auto r = preduce::reduce(b, data, op, opts);  // warm-up
    std::vector<double> times;
    for (int i = 0; i < s.repeat; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        r = preduce::reduce(b, data, op, opts);
        const auto t1 = std::chrono::steady_clock::now();
        times.push_back(std::chrono::duration<double>(t1 - t0).count());
    }
    return {b, preduce::describe(b, opts), to_result(r), median(std::move(times)), std::nullopt};
}

// Float sums only: integer sums are exact (or wrap by definition), and min, max,
// argmin, argmax and count_if involve no rounding at all.
template <class T>
std::optional<preduce::detail::exact_sum> exact_reference(const std::vector<T>& data, const operation& op,
                                                          run_summary& summary) {
    if constexpr (!std::is_floating_point_v<T>) {
        return std::nullopt;
    } else {
        if (!op.is_sum()) return std::nullopt;
        preduce::detail::exact_sum exact;
        double sum_abs = 0;
        for (T x : data) {
            exact.add(x);
            sum_abs += std::fabs(static_cast<double>(x));
        }
        // Only sum over float accumulates in float; wide_sum of float accumulates in double.
        const bool in_float = std::is_same_v<T, float> && op.kind == op_kind::sum;
        const double u = in_float ? std::numeric_limits<float>::epsilon() / 2 : std::numeric_limits<double>::epsilon() / 2;
        const double n = static_cast<double>(data.size());
        summary.reference = sum_reference{static_cast<double>(exact.value()), sum_abs, n > 1 ? (n - 1) * u * sum_abs : 0.0};
        return exact;
    }
}

} // namespace

double result_value::as_double() const {
    return std::visit([](auto v) { return static_cast<double>(v); }, value);
}

run_summary run_all(const dataset& data, const operation& op, const run_settings& settings) {
    return std::visit(
        [&](const auto& v) {
            using T = typename std::decay_t<decltype(v)>::value_type;
            run_summary summary;
            summary.op = op;
            summary.type_name = preduce::detail::type_name<T>();
            summary.n = v.size();
            summary.bytes = v.size() * sizeof(T);
            with_preduce_op<T>(op, [&](const auto& pop) {
                for (auto b : settings.backends) summary.results.push_back(measure(b, v, pop, settings));
                return 0;
            });
            if (const auto exact = exact_reference(v, op, summary))
                for (auto& r : summary.results) {
                    // The error itself computed exactly: add -result to the exact partials,
                    // which gives exact - result, rounded once.
                    auto e = *exact;
                    e.add(-r.result.as_double());
                    r.error = 0.0 - static_cast<double>(e.value());  // 0.0 - : no "-0" for an exact result
                }
            return summary;
        },
        data);
}

} // namespace preduce_cli
