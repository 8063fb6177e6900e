#pragma once
// The operations a caller names: preduce::sum, preduce::argmin,
// preduce::count_if(preduce::greater(0.5f)), ... Each turns into the reducer for the
// element type of the data (reducers.hpp) when reduce() knows that type.
#include <cmath>
#include <functional>
#include <utility>
#include <string>
#include <type_traits>

#include "preduce/detail/backend_contract/operation_list.hpp"
#include "preduce/detail/routing/resolve.hpp"
#include "preduce/detail/core/type_name.hpp"
#include "preduce/errors.hpp"
#include "preduce/fused.hpp"
#include "preduce/reducers.hpp"
#include "preduce/source.hpp"
#include "preduce/transforms.hpp"

namespace preduce {

template <template <class> class R>
struct op_tag {
    template <class T>
    constexpr R<T> reducer_for() const noexcept { return R<T>{}; }
};

// preduce::sum, preduce::max, preduce::nansum, ...: the op object of every plain built-in
// operation (detail/backend_contract/operation_list.hpp); what each does is its reducer's (reducers.hpp,
// transforms.hpp: name and help).
#define PREDUCE_DEFINE_OP_OBJECT(name, ...) inline constexpr op_tag<name##_reducer> name{};
PREDUCE_FOR_EACH_PLAIN_OPERATION(PREDUCE_DEFINE_OP_OBJECT)
#undef PREDUCE_DEFINE_OP_OBJECT

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
    } else if constexpr (is_half_v<T>) {
        // Every 16-bit float is a float: u must survive u -> float -> T -> float unchanged.
        const long double lu = static_cast<long double>(u);
        bool exact = !std::isfinite(lu) || std::fabs(lu) <= static_cast<long double>(std::numeric_limits<float>::max());
        T t{};
        if (exact) {
            t = round_from_float<T>(static_cast<float>(lu));
            exact = static_cast<long double>(to_float(t)) == lu;
        }
        if (!exact)
            throw invalid_argument(std::string("count_if: ") + what + " " + std::to_string(u) +
                                   " is not exactly representable as " + type_name<T>() +
                                   "; pass a threshold that " + type_name<T>() + " holds exactly");
        return t;
    } else {
        // Compared in long double, which holds every value of these types: converting t
        // back to U may overflow U (float(UINT64_MAX) is 2^64), and a finite u beyond T's
        // range (1e300 for float) is refused before it is converted at all.
        const long double lu = static_cast<long double>(u);
        const bool in_range = !std::isfinite(lu) || (lu >= static_cast<long double>(std::numeric_limits<T>::lowest()) &&
                                                     lu <= static_cast<long double>(std::numeric_limits<T>::max()));
        const T t = in_range ? static_cast<T>(u) : T(0);
        if (!in_range || static_cast<long double>(t) != lu)
            throw invalid_argument(std::string("count_if: ") + what + " " + std::to_string(u) +
                                   " is not exactly representable as " + type_name<T>() +
                                   "; pass a threshold of the element type (e.g. 0.5f for float data)");
        return t;
    }
}
// A 16-bit float threshold stands for its exact value, a float.
template <class T, class U>
    requires is_half_v<U>
T exact_threshold(U u, const char* what) {
    return exact_threshold<T>(to_float(u), what);
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
            if (detail::widen(r.pred.b) < detail::widen(r.pred.a))
                throw invalid_argument("count_if: in_range(lo, hi) needs lo <= hi");
        }
        return r;
    }
};

template <class U>
constexpr count_if_op<U> count_if(predicate_spec<U> p) { return {p}; }


namespace detail {
template <class V>
struct same_pair : std::false_type {};
template <class T>
struct same_pair<zip_value<T, T>> : std::true_type { using element = T; };
} // namespace detail

// sum of x[i] * y[i]: reduce(backend, x, y, preduce::dot).
struct dot_op {
    static constexpr const char* name = "dot";
    template <class V>
    constexpr auto reducer_for() const noexcept {
        static_assert(detail::same_pair<V>::value,
                      "preduce::dot reads two inputs of one element type: reduce(backend, x, y, preduce::dot)");
        return dot_reducer<typename detail::same_pair<V>::element>{};
    }
};
inline constexpr dot_op dot{};

// Count, mean and variance in one pass (preduce::moments: moments_result), or just one of them.
struct mean_op {
    using reshapes_result = void;  // project() below
    static constexpr const char* name = "mean";
    static constexpr const char* help = "mean, as float64 (NaN for an empty input)";
    template <class T>
    constexpr moments_reducer<T> reducer_for() const noexcept { return {}; }
    constexpr double project(const moments_result& m) const noexcept { return m.mean; }
};
struct variance_op {
    using reshapes_result = void;  // project() below
    static constexpr const char* name = "var";  // NumPy's name
    static constexpr const char* help = "population variance (divide by n), as float64";
    template <class T>
    constexpr moments_reducer<T> reducer_for() const noexcept { return {}; }
    constexpr double project(const moments_result& m) const noexcept { return m.variance(); }
};
inline constexpr mean_op mean{};          // double; NaN for empty input
inline constexpr variance_op variance{};  // population variance (divide by n), double

// min and max in one pass.
struct minmax_op {
    using reshapes_result = void;  // project() below
    static constexpr const char* name = "minmax";
    static constexpr const char* help = "smallest and largest element in one pass; NaN propagates";
    template <class T>
    constexpr minmax_reducer<T> reducer_for() const noexcept { return {}; }
    template <class T>
    constexpr minmax_result<T> project(const pack<T, T>& r) const noexcept { return {get<0>(r), get<1>(r)}; }
};
inline constexpr minmax_op minmax{};

// Several operations in one pass: fused(sum, count_if(greater(0.0f)), max) returns a
// pack of their results. Each part may be any operation (built-in, user-defined, transform).
template <class... Ops>
struct fused_op {
    pack<Ops...> ops;
    template <class V>
    constexpr auto reducer_for() const {
        return make_(std::index_sequence_for<Ops...>{}, static_cast<const V*>(nullptr));
    }

private:
    template <std::size_t... I, class V>
    constexpr auto make_(std::index_sequence<I...>, const V*) const {
        static_assert((!requires { typename Ops::reshapes_result; } && ...),
                      "preduce::fused: mean, variance and minmax reshape their results and cannot be parts; "
                      "use moments, or min and max");
        using R = fused_reducer<detail::resolved_t<V, Ops>...>;
        return R{make_pack(detail::resolve_reducer<V>(get<I>(ops))...)};
    }
};
template <class... Ops>
constexpr fused_op<Ops...> fused(const Ops&... ops) {
    return {make_pack(ops...)};
}

// transform(f, op): reduces f(x) with op, in the same pass (f must be __host__ __device__
// for the CUDA backend). Works with any op, including user operations and fused ones.
template <class F, class Op>
struct transform_op {
    F f;
    Op op;
    template <class V>
    constexpr auto reducer_for() const {
        using U = std::remove_cvref_t<std::invoke_result_t<const F&, const V&>>;
        using Inner = detail::resolved_t<U, Op>;
        return transformed_reducer<V, F, Inner>{f, detail::resolve_reducer<U>(op)};
    }
    template <class Result>
    constexpr auto project(Result&& r) const {
        return detail::project(op, std::forward<Result>(r));
    }
};
template <class F, class Op>
constexpr transform_op<F, Op> transform(F f, Op op) {
    return {f, op};
}

// An operation usable with element type T: an op, a reducer or a user operation.
template <class Op, class T>
concept operation_for = detail::operation_like<Op, T>;

} // namespace preduce
