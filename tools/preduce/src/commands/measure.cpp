#include "commands/measure.hpp"

#include <algorithm>
#include <cstring>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include <fmt/format.h>
#include "preduce/exact_sum.hpp"
#include "output/result_files.hpp"
#include "commands/timing.hpp"

namespace preduce_cli {
namespace {

// call(backend, options) runs one reduction of `bytes` bytes starting at data and returns
// its result. With --output the last result is written as a one-element array (result_files.hpp).
template <class Call>
backend_result measure(preduce::backend b, const run_settings& s, const void* data, std::size_t bytes,
                       preduce::operation_family family, const Call& call) {
    const preduce::options opts{.threads = s.threads, .precision = s.precision};
    std::optional<decltype(call(b, opts))> r;
    const double t = median_seconds(s.repeat, [&] { r = call(b, opts); });
    if (s.output_prefix) write_result_files(*s.output_prefix, preduce::name(b), arrays_of(std::vector{*r}));
    return {b, label_of(b, opts, data, bytes, family), to_result(*r), t, std::nullopt, std::nullopt, std::nullopt};
}

// Floating-point sums only (kind plus with a floating-point accumulator: the reducers that
// take the fixed order): integer sums are exact (or wrap by definition), min, max, argmin,
// argmax and count_if involve no rounding at all, and mean and var have no simple bound to
// hold them to. A sum whose lift is exact (sum, wide_sum, asum, nansum: the reducer says
// lift_is_exact) is measured against the exact sum of its lifted values; sumsq and dot
// against the exact sum of the exact products.
// float16 and bfloat16 are summed as their exact float values, and their sums (not wide_sum)
// accumulate in float: their bound is float's.
template <class T, class Op>
std::optional<preduce::exact_sum> exact_reference(const std::vector<T>& xs, const std::vector<T>* ys, const Op& op,
                                                          run_summary& summary) {
    constexpr bool pairs = std::is_same_v<Op, preduce::dot_op>;
    using R = preduce::detail::resolved_t<std::conditional_t<pairs, preduce::zip_value<T, T>, T>, Op>;
    using A = typename R::accumulator_type;
    constexpr bool float_sum =
        is_floating_v<T> && preduce::detail::fixed_order::support_of<R>() == preduce::detail::fixed_order::support::float_sum;
    constexpr bool products = pairs || std::is_same_v<R, preduce::sumsq_reducer<T>>;
    if constexpr (!float_sum || (!preduce::detail::fixed_order::exact_lift_v<R> && !products)) {
        return std::nullopt;
    } else {
        using W = decltype(numeric(T{}));  // float for the 16-bit floats, else T
        const auto x = [&](std::size_t i) { return numeric(xs[i]); };
        const auto y = [&](std::size_t i) { return numeric((*ys)[i]); };
        const R r = preduce::detail::resolve_reducer<std::conditional_t<pairs, preduce::zip_value<T, T>, T>>(op);
        preduce::exact_sum exact;
        double sum_abs = 0;
        // a*b exactly: in double for float, as the double product plus fma's exact
        // remainder for double (exact barring underflow and overflow).
        const auto add_product = [&](W a, W b) {
            if constexpr (std::is_same_v<W, float>) {
                const double p = static_cast<double>(a) * static_cast<double>(b);
                exact.add(p);
                sum_abs += std::fabs(p);
            } else {
                const double p = a * b;
                exact.add(p);
                if (std::isfinite(p)) exact.add(std::fma(a, b, -p));
                sum_abs += std::fabs(p);
            }
        };
        for (std::size_t i = 0; i < xs.size(); ++i) {
            if constexpr (pairs) {
                add_product(x(i), y(i));
            } else if constexpr (products) {
                add_product(x(i), x(i));
            } else {
                const double v = static_cast<double>(r.lift(xs[i], i));  // exact: lift_is_exact
                exact.add(v);
                sum_abs += std::fabs(v);
            }
        }
        // u of the accumulator: float for float, float16 and bfloat16 sums; double for
        // double and for wide_sum.
        const double u =
            std::is_same_v<A, float> ? std::numeric_limits<float>::epsilon() / 2 : std::numeric_limits<double>::epsilon() / 2;
        const double n = static_cast<double>(xs.size());
        sum_reference ref{static_cast<double>(exact.value()), sum_abs, 0.0, "", "", ""};
        if constexpr (products) {
            // Each product rounds once more than a plain sum's terms.
            ref.bound = n * u * sum_abs;
            ref.what = pairs ? "dot" : "sum x^2";
            ref.formula = pairs ? "n*u*sum|x*y|" : "n*u*sum x^2";
            ref.source = "Jeannerod-Rump";
        } else {
            const std::string name = R::name;
            ref.bound = n > 1 ? (n - 1) * u * sum_abs : 0.0;
            ref.what = name == "sum" || name == "wide_sum" ? std::string("sum") : name;
            ref.formula = "(n-1)*u*sum|x|";
            ref.source = "Higham";
        }
        summary.reference = std::move(ref);
        return exact;
    }
}

} // namespace

// A floating-point result's bits in hex ("0x3f800000" for 1.0f), so that equal text
// means equal bits (-0.0 and +0.0, NaN payloads included).
std::string bits_text(const scalar& v) {
    return std::visit(
        [](auto x) -> std::string {
            using X = decltype(x);
            using U = std::conditional_t<sizeof(X) == 2, std::uint16_t,
                                         std::conditional_t<sizeof(X) == 4, std::uint32_t, std::uint64_t>>;
            static_assert(sizeof(U) == sizeof(X));
            U u;
            std::memcpy(&u, &x, sizeof u);
            return fmt::format("0x{:0{}x}", u, 2 * sizeof u);
        },
        v);
}

std::optional<std::string> half_bits(result_shape shape, const result_value& r) {
    const auto is_half = [](const scalar& v) {
        return std::holds_alternative<preduce::float16>(v) || std::holds_alternative<preduce::bfloat16>(v);
    };
    switch (shape) {
    case result_shape::scalar:
        if (is_half(r.value)) return bits_text(r.value);
        break;
    case result_shape::arg:
        if (is_half(r.value) && !(r.index && *r.index == preduce::no_index)) return bits_text(r.value);
        break;
    case result_shape::minmax:
        if (r.min && r.max && is_half(*r.min)) return bits_text(*r.min) + "/" + bits_text(*r.max);
        break;
    case result_shape::moments: break;
    }
    return std::nullopt;
}

double result_value::as_double() const {
    return std::visit([](auto v) { return static_cast<double>(numeric(v)); }, value);
}

std::string label_of(preduce::backend b, const preduce::options& opts, const void* data, std::size_t bytes,
                     preduce::operation_family family) {
    if (b != preduce::backend::automatic) return preduce::describe(b, opts);
    return "auto -> " + preduce::describe(preduce::choose_automatic(data, bytes, family, opts).chosen, opts);
}

run_summary run_all(const dataset& data, const dataset* second, const operation& op, const run_settings& settings) {
    return visit_inputs(data, second, op, [&](const auto& v, const auto* y) {
        using T = typename std::decay_t<decltype(v)>::value_type;
        run_summary summary = summary_for<T>(op, v.size(), y != nullptr);
        std::optional<preduce::exact_sum> exact;
        with_preduce_op<T>(op, [&](const auto& pop) {
            exact = exact_reference(v, y, pop, summary);
            // dot compiles only in the two-input reduce(), the others only in the one-input one.
            const auto call = [&](preduce::backend be, const preduce::options& o) {
                if constexpr (std::is_same_v<std::remove_cvref_t<decltype(pop)>, preduce::dot_op>)
                    return preduce::reduce(be, v, *y, pop, o);
                else
                    return preduce::reduce(be, v, pop, o);
            };
            const std::size_t bytes = v.size() * sizeof(T) * (y != nullptr ? 2 : 1);
            const preduce::operation_family family = family_of<T>(pop);
            for (auto b : settings.backends)
                summary.results.push_back(measure(b, settings, v.data(), bytes, family, call));
            return 0;
        });
        summary.precision = settings.precision;
        if (exact) {
            for (auto& r : summary.results) r.bits = bits_text(r.result.value);
            summary.bit_identical = std::all_of(summary.results.begin(), summary.results.end(), [&](const auto& r) {
                return r.bits == summary.results.front().bits;
            });
            for (auto& r : summary.results) {
                // The error itself computed exactly: add -result to the exact partials,
                // which gives exact - result, rounded once.
                auto e = *exact;
                e.add(-r.result.as_double());
                r.error = 0.0 - static_cast<double>(e.value());  // 0.0 - : no "-0" for an exact result
            }
        }
        return summary;
    });
}

} // namespace preduce_cli
