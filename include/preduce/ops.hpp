#pragma once
// The operations a caller names: preduce::sum, preduce::argmin,
// preduce::count_if(preduce::greater(0.5f)), ... Each turns into the reducer for the
// element type of the data (reducers.hpp) when reduce() knows that type.
#include <cmath>
#include <string>
#include <type_traits>

#include "preduce/detail/type_name.hpp"
#include "preduce/errors.hpp"
#include "preduce/reducers.hpp"

namespace preduce {

template <template <class> class R>
struct op_tag {
    template <class T>
    constexpr R<T> reducer_for() const noexcept { return R<T>{}; }
};

inline constexpr op_tag<sum_reducer> sum{};
inline constexpr op_tag<wide_sum_reducer> wide_sum{};  // float summed in double, 32-bit ints in 64-bit
inline constexpr op_tag<prod_reducer> prod{};
inline constexpr op_tag<min_reducer> min{};
inline constexpr op_tag<max_reducer> max{};
inline constexpr op_tag<argmin_reducer> argmin{};
inline constexpr op_tag<argmax_reducer> argmax{};

// A predicate as the caller wrote it, with thresholds of the caller's type U. It is
// converted to the element type when reduce() runs, and refused (invalid_argument)
// if a threshold does not survive that conversion: greater(-0.5) over int32 data
// must not silently become greater(0).
template <class U>
struct predicate_spec {
    predicate_kind kind;
    U a{};
    U b{};
};

template <class U>
constexpr predicate_spec<U> equal(U v) { return {predicate_kind::equal, v, v}; }
template <class U>
constexpr predicate_spec<U> not_equal(U v) { return {predicate_kind::not_equal, v, v}; }
template <class U>
constexpr predicate_spec<U> less(U v) { return {predicate_kind::less, v, v}; }
template <class U>
constexpr predicate_spec<U> less_equal(U v) { return {predicate_kind::less_equal, v, v}; }
template <class U>
constexpr predicate_spec<U> greater(U v) { return {predicate_kind::greater, v, v}; }
template <class U>
constexpr predicate_spec<U> greater_equal(U v) { return {predicate_kind::greater_equal, v, v}; }
// Half-open [lo, hi), like every C++ range.
template <class U>
constexpr predicate_spec<U> in_range(U lo, U hi) { return {predicate_kind::in_range, lo, hi}; }
constexpr predicate_spec<double> is_nan() { return {predicate_kind::is_nan, 0.0, 0.0}; }

namespace detail {
template <class T, class U>
T exact_threshold(U u, const char* what) {
    static_assert(std::is_arithmetic_v<U>, "count_if thresholds must be arithmetic values");
    if constexpr (std::is_floating_point_v<U>) {
        if (u != u)
            throw invalid_argument(std::string("count_if: ") + what +
                                   " is NaN, which compares unequal to everything; use preduce::is_nan()");
    }
    const T t = static_cast<T>(u);
    // Range check in long double first: converting an out-of-range float to an integer is UB.
    if constexpr (std::is_integral_v<T> && std::is_floating_point_v<U>) {
        const long double lu = u;
        if (!(lu >= static_cast<long double>(std::numeric_limits<T>::lowest()) &&
              lu <= static_cast<long double>(std::numeric_limits<T>::max())) ||
            std::trunc(lu) != lu)
            throw invalid_argument(std::string("count_if: ") + what + " " + std::to_string(u) +
                                   " is not exactly representable as " + type_name<T>() +
                                   "; pass a threshold of the element type");
        return static_cast<T>(u);
    } else {
        if (static_cast<U>(t) != u || (std::is_integral_v<U> && std::is_integral_v<T> && ((u < U(0)) != (t < T(0)))))
            throw invalid_argument(std::string("count_if: ") + what + " " + std::to_string(u) +
                                   " is not exactly representable as " + type_name<T>() +
                                   "; pass a threshold of the element type (e.g. 0.5f for float data)");
        return t;
    }
}
} // namespace detail

template <class U>
struct count_if_op {
    predicate_spec<U> spec;
    template <class T>
    count_reducer<T> reducer_for() const {
        count_reducer<T> r;
        r.pred.kind = spec.kind;
        if (spec.kind == predicate_kind::is_nan) return r;
        r.pred.a = detail::exact_threshold<T>(spec.a, spec.kind == predicate_kind::in_range ? "lower bound" : "threshold");
        if (spec.kind == predicate_kind::in_range) {
            r.pred.b = detail::exact_threshold<T>(spec.b, "upper bound");
            if (r.pred.b < r.pred.a) throw invalid_argument("count_if: in_range(lo, hi) needs lo <= hi");
        }
        return r;
    }
};

template <class U>
constexpr count_if_op<U> count_if(predicate_spec<U> p) { return {p}; }

// An operation usable with element type T: anything with reducer_for<T>().
template <class Op, class T>
concept operation_for = requires(const Op& op) { op.template reducer_for<T>(); };

} // namespace preduce
