#pragma once
// Expected results computed independently of every backend (std algorithms, exact
// summation), and the Higham bound for floating-point sums.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <type_traits>

#include "preduce/exact_sum.hpp"
#include "preduce/reducers.hpp"

namespace preduce::test::oracle {

template <class T>
bool is_nan(T x) {
    if constexpr (std::is_floating_point_v<T>) return std::isnan(x);
    else return false;
}

// -0.0 below +0.0, as the min/max semantics of README.md's table require.
template <class T>
bool less(T a, T b) {
    if constexpr (std::is_floating_point_v<T>)
        if (a == b) return std::signbit(a) && !std::signbit(b);
    return a < b;
}

// Two's-complement wrap-around sum of integers, in Acc's width.
template <class Acc, class T>
Acc wrapped_sum(std::span<const T> x) {
    using U = std::make_unsigned_t<Acc>;
    const U s = std::accumulate(x.begin(), x.end(), U{0}, [](U a, T b) { return U(a + U(Acc(b))); });
    return static_cast<Acc>(s);
}

template <class T>
T wrapped_prod(std::span<const T> x) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(std::accumulate(x.begin(), x.end(), U{1}, [](U a, T b) { return U(a * U(b)); }));
}

// The identities of README.md's table: -inf/+inf for floats (never numeric_limits::min()),
// lowest()/max() for integers.
template <class T, bool Max>
T identity() {
    if constexpr (std::is_floating_point_v<T>)
        return Max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    else
        return Max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
}

// sumsq, asum and dot of integers, wrapping like sum: |INT_MIN| is 2^31, squares and
// products are taken mod 2^bits.
template <class T>
T wrapped_sumsq(std::span<const T> x) {
    using U = std::make_unsigned_t<T>;
    U s = 0;
    for (T v : x) s = U(s + U(U(v) * U(v)));
    return static_cast<T>(s);
}
template <class T>
T wrapped_asum(std::span<const T> x) {
    using U = std::make_unsigned_t<T>;
    U s = 0;
    for (T v : x) s = U(s + (v < T(0) ? U(U(0) - U(v)) : U(v)));
    return static_cast<T>(s);
}
template <class T>
T wrapped_dot(std::span<const T> x, std::span<const T> y) {
    using U = std::make_unsigned_t<T>;
    U s = 0;
    for (std::size_t i = 0; i < x.size(); ++i) s = U(s + U(U(x[i]) * U(y[i])));
    return static_cast<T>(s);
}

template <class T, bool Max>
arg_result<T> arg_extremum(std::span<const T> x) {
    if (x.empty()) return {identity<T, Max>(), no_index};
    const auto nan = std::find_if(x.begin(), x.end(), [](T v) { return is_nan(v); });
    if (nan != x.end()) return {*nan, static_cast<std::size_t>(nan - x.begin())};
    // min_element/max_element return the FIRST best element: the lowest index on ties.
    const auto it = Max ? std::max_element(x.begin(), x.end(), less<T>) : std::min_element(x.begin(), x.end(), less<T>);
    return {*it, static_cast<std::size_t>(it - x.begin())};
}

struct float_sum {
    long double exact;   // the exact sum, rounded once to long double (NaN/inf by IEEE rules)
    long double bound;   // |computed - exact| may not exceed this
};

// The product in long double and the bound for any order of its n - 1 multiplications
// in precision u (Higham's gamma, as for sums), for data whose partial products neither
// overflow nor underflow (data.hpp's product_values). Each long double multiplication
// adds at most 2^-64 relative, hence the last term.
template <class T>
float_sum prod_with_bound(std::span<const T> x, long double u) {
    long double p = 1;
    for (T v : x) p *= v;
    const long double k = x.empty() ? 0 : static_cast<long double>(x.size() - 1);
    return {p, (k * u * (1 + 2 * k * u) + static_cast<long double>(x.size()) * std::ldexp(1.0L, -63)) * std::fabs(p)};
}

// Higham, Accuracy and Stability, (4.4): any summation order in precision u satisfies
// |computed - S| <= gamma_{n-1} * sum|x_i|, gamma_k = k u / (1 - k u) = k u (1 + k u + ...).
// We use k u (1 + 2 k u), which is >= gamma_k while k u <= 1/2 and stays finite beyond
// (where every bound of this form is weak). exact carries its own rounding to long
// double, at most 2^-64 |S|.
template <class T>
float_sum sum_with_bound(std::span<const T> x, long double u) {
    preduce::exact_sum s;
    long double abs_sum = 0;
    for (T v : x) {
        s.add(static_cast<long double>(v));
        abs_sum += std::fabs(static_cast<long double>(v));
    }
    const long double exact = s.value();
    const long double k = x.empty() ? 0 : static_cast<long double>(x.size() - 1);
    const long double gamma = k * u * (1 + 2 * k * u);
    return {exact, gamma * abs_sum + std::ldexp(std::fabs(exact), -63)};
}

// Sum of f(x_i) for a lifted value f(x_i) (x^2, |x|, x*y) that the library rounds to T
// before summing: each term adds at most u |f(x_i)| to Higham's bound, hence n rather
// than n - 1, and a term that underflows (the square of a denormal) may lose up to half
// of T's smallest denormal. The terms are formed in long double here (exact for float,
// within 2^-64 relative for double), which the last terms of the bound cover.
template <class T, class F>
float_sum lifted_sum_with_bound(std::size_t n, F term, long double u) {
    preduce::exact_sum s;
    long double abs_sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const long double t = term(i);
        s.add(t);
        abs_sum += std::fabs(t);
    }
    const long double exact = s.value();
    const long double k = static_cast<long double>(n);
    const long double gamma = k * u * (1 + 2 * k * u);
    return {exact, gamma * abs_sum + k * std::ldexp(abs_sum, -62) + std::ldexp(std::fabs(exact), -63) +
                       k * static_cast<long double>(std::numeric_limits<T>::denorm_min())};
}

// Count, mean and population variance, two-pass in long double.
struct moments_ref {
    std::size_t count;
    long double mean;
    long double variance;
    long double mean_abs;     // mean of |x|: the scale of the mean's rounding errors
    long double mean_square;  // mean of x^2: the scale of the variance's
};

template <class T>
moments_ref moments_of(std::span<const T> x) {
    moments_ref r{x.size(), 0, 0, 0, 0};
    if (x.empty()) return r;
    preduce::exact_sum s;
    for (T v : x) {
        s.add(static_cast<long double>(v));
        r.mean_abs += std::fabs(static_cast<long double>(v));
        r.mean_square += static_cast<long double>(v) * static_cast<long double>(v);
    }
    const long double n = static_cast<long double>(x.size());
    r.mean = s.value() / n;
    r.mean_abs /= n;
    r.mean_square /= n;
    long double q = 0;
    for (T v : x) q += (static_cast<long double>(v) - r.mean) * (static_cast<long double>(v) - r.mean);
    r.variance = q / n;
    return r;
}

// How far a computed mean and population variance may be from moments_of's: loose
// enough for Welford's left fold (seq) at n = 2^24, tight enough that a lost, doubled or
// misplaced partial result shows. The last term covers underflow in each update.
inline long double mean_tolerance(const moments_ref& r) {
    const long double n = static_cast<long double>(r.count), u = std::numeric_limits<double>::epsilon() / 2;
    return 4 * n * u * r.mean_abs + 2 * n * std::numeric_limits<double>::denorm_min();
}
inline long double variance_tolerance(const moments_ref& r) {
    const long double n = static_cast<long double>(r.count), u = std::numeric_limits<double>::epsilon() / 2;
    return 16 * n * u * r.mean_square + 2 * n * std::numeric_limits<double>::denorm_min();
}

} // namespace preduce::test::oracle
