#pragma once
// Transform-reduce built-ins: each element is mapped (lift) and the results summed in
// one pass. Sums of squares, of absolute values and dot products accumulate like sum
// (in detail::compute_t of the element type, -0.0 identity, integers wrap); moments keeps count, mean and the sum of
// squared deviations and merges partial results with Chan et al.'s pairwise update, which
// never subtracts two large sums (the textbook sum(x^2) - n mean^2 loses every digit
// when the mean dwarfs the spread).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "preduce/detail/core/hd.hpp"
#include "preduce/detail/core/numeric.hpp"
#include "preduce/reducers.hpp"
#include "preduce/source.hpp"

namespace preduce {

namespace detail {
// An element's value in the accumulator of its sums: integers square and multiply in the
// unsigned twin of compute_t (wrap-around, never UB), 16-bit floats in float.
template <class T>
PREDUCE_HD constexpr wrap_t<compute_t<T>> as_acc(T x) noexcept {
    return static_cast<wrap_t<compute_t<T>>>(widen(x));
}
} // namespace detail

// Built on sum_reducer, they say every trait of their own that differs from sum's.
template <class T>
struct sumsq_reducer : sum_reducer<T> {
    using accumulator_type = typename sum_reducer<T>::accumulator_type;
    using same_bits_as = detail::unsigned_twin_t<sumsq_reducer, T>;
    static constexpr bool lift_is_exact = false;  // x * x rounds
    static constexpr const char* name = "sumsq";
    static constexpr const char* help = "sum of squares (x * x in the sum's type)";
    PREDUCE_HD constexpr accumulator_type lift(T x, std::size_t) const noexcept {
        const accumulator_type a = detail::as_acc(x);
        return a * a;
    }
};

// |x|; for signed integers the magnitude in the unsigned twin, so |INT_MIN| is 2^31 and
// the sum wraps like sum. For floats fabs clears the sign bit (|-0.0| is +0.0, |NaN| NaN).
template <class T>
struct asum_reducer : sum_reducer<T> {
    using accumulator_type = typename sum_reducer<T>::accumulator_type;
    using same_bits_as = asum_reducer;  // |x| differs between a signed type and its twin
    static constexpr const char* name = "asum";
    static constexpr const char* help = "sum of absolute values";
    PREDUCE_HD constexpr accumulator_type lift(T element, std::size_t) const noexcept {
        using C = detail::compute_t<T>;
        const C x = detail::widen(element);
        if constexpr (std::is_floating_point_v<C>) return x < C(0) ? -x : (x == C(0) ? C(0) : x);
        else if constexpr (std::is_signed_v<C>) return x < 0 ? accumulator_type(0) - accumulator_type(x) : accumulator_type(x);
        else return x;
    }
};

// sum of x[i] * y[i] over two inputs read side by side.
template <class T>
struct dot_reducer {
    using value_type = zip_value<T, T>;
    using accumulator_type = detail::wrap_t<detail::compute_t<T>>;
    using result_type = detail::compute_t<T>;
    using same_bits_as = detail::unsigned_twin_t<dot_reducer, T>;
    static constexpr combine_kind kind = combine_kind::plus;
    static constexpr bool commutative = true;
    static constexpr const char* name = "dot";
    static constexpr const char* help = "sum of x[i] * y[i] over two inputs";
    PREDUCE_HD static constexpr accumulator_type identity() noexcept { return detail::additive_identity<accumulator_type>(); }
    PREDUCE_HD constexpr accumulator_type lift(value_type v, std::size_t) const noexcept {
        return detail::as_acc(v.first) * detail::as_acc(v.second);
    }
    PREDUCE_HD static constexpr accumulator_type combine(accumulator_type a, accumulator_type b) noexcept { return a + b; }
    PREDUCE_HD constexpr result_type finish(accumulator_type a) const noexcept { return static_cast<result_type>(a); }
    PREDUCE_HD constexpr accumulator_type resume(result_type r, std::uint64_t) const noexcept {
        return detail::resume_scalar<dot_reducer>(r);
    }
};

// Count, mean and variance of the elements, in double whatever the element type.
// variance is the population variance (divide by n, NumPy's default); sample_variance
// divides by n - 1. Empty input: count 0, mean and variances NaN. A non-finite mean
// (an infinity in the data) makes the variances NaN, as the deviations are undefined.
struct moments_result {
    std::uint64_t count;
    double mean;
    double m2;  // sum of squared deviations from the mean
    PREDUCE_HD constexpr double variance() const noexcept {
        return count == 0 || !finite(mean) ? std::numeric_limits<double>::quiet_NaN() : m2 / static_cast<double>(count);
    }
    PREDUCE_HD constexpr double sample_variance() const noexcept {
        return count < 2 || !finite(mean) ? std::numeric_limits<double>::quiet_NaN()
                                           : m2 / static_cast<double>(count - 1);
    }
    friend constexpr bool operator==(const moments_result&, const moments_result&) = default;

private:
    PREDUCE_HD static constexpr bool finite(double x) noexcept { return x - x == 0.0; }
};

namespace detail {
// Partial moments of a set of elements. n is a double (exact to 2^53 elements) so that
// the merge needs no integer-to-float conversions.
struct moments_acc {
    double n;
    double mean;
    double m2;
};

// Chan, Golub & LeVeque's merge of two partial moments. With b a single element it is
// Welford's update. An empty side returns the other unchanged. The mean is the weighted
// average of the two means, except when they are equal (then it is kept exactly, so
// constant data have variance 0): the textbook a.mean + d * wb would turn mean(inf, 5)
// into inf - inf = NaN.
PREDUCE_HD constexpr moments_acc merge_moments(moments_acc a, moments_acc b) noexcept {
    if (b.n == 0.0) return a;
    if (a.n == 0.0) return b;
    const double n = a.n + b.n;
    const double d = b.mean - a.mean;
    const double wa = a.n / n, wb = b.n / n;
    const double mean = d == 0.0 ? a.mean : a.mean * wa + b.mean * wb;
    return {n, mean, a.m2 + b.m2 + d * d * (a.n * wb)};
}
} // namespace detail

template <class T>
struct moments_reducer {
    using value_type = T;
    using accumulator_type = detail::moments_acc;
    using result_type = moments_result;
    static constexpr combine_kind kind = combine_kind::custom;
    static constexpr bool commutative = true;
    static constexpr const char* name = "moments";
    static constexpr const char* help = "count, mean and population variance in one pass, as float64";
    PREDUCE_HD static constexpr accumulator_type identity() noexcept { return {0.0, 0.0, 0.0}; }
    PREDUCE_HD constexpr accumulator_type lift(T x, std::size_t) const noexcept {
        return {1.0, static_cast<double>(detail::widen(x)), 0.0};
    }
    PREDUCE_HD static constexpr accumulator_type combine(accumulator_type a, accumulator_type b) noexcept {
        return detail::merge_moments(a, b);
    }
    PREDUCE_HD constexpr result_type finish(accumulator_type a) const noexcept {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        return {static_cast<std::uint64_t>(a.n), a.n == 0.0 ? nan : a.mean, a.n == 0.0 ? nan : a.m2};
    }
    PREDUCE_HD constexpr accumulator_type resume(const result_type& r, std::uint64_t) const noexcept {
        return r.count == 0 ? identity() : accumulator_type{static_cast<double>(r.count), r.mean, r.m2};
    }
};

// The sum of the elements that are not NaN (NumPy's nansum): a NaN counts as +0.0, as NumPy
// replaces it with zero, so an input of NaNs sums to +0.0 (an empty one to the identity,
// -0.0, as sum). Integers have no NaN: there it is sum.
template <class T>
struct nansum_reducer : sum_reducer<T> {
    using accumulator_type = typename sum_reducer<T>::accumulator_type;
    using same_bits_as = std::conditional_t<detail::is_float_element_v<T>, nansum_reducer, sum_reducer<T>>;
    static constexpr const char* name = "nansum";
    static constexpr const char* help = "sum of the elements that are not NaN (NumPy's nansum)";
    PREDUCE_HD constexpr accumulator_type lift(T x, std::size_t) const noexcept {
        return detail::is_nan(x) ? accumulator_type(0) : accumulator_type(detail::widen(x));
    }
};

} // namespace preduce
