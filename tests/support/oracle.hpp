#pragma once
// Expected results computed independently of every backend (std algorithms, exact
// summation), and the Higham bound for floating-point sums.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <span>
#include <type_traits>

#include "preduce/detail/exact_sum.hpp"
#include "preduce/reducers.hpp"

namespace preduce::test::oracle {

template <class T>
bool is_nan(T x) {
    if constexpr (std::is_floating_point_v<T>) return std::isnan(x);
    else return false;
}

// -0.0 below +0.0, as DESIGN.md's min/max semantics require.
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

// DESIGN.md's identities: -inf/+inf for floats (never numeric_limits::min()),
// lowest()/max() for integers.
template <class T, bool Max>
T identity() {
    if constexpr (std::is_floating_point_v<T>)
        return Max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    else
        return Max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
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

// Higham, Accuracy and Stability, (4.4): any summation order in precision u satisfies
// |computed - S| <= gamma_{n-1} * sum|x_i|, gamma_k = k u / (1 - k u) = k u (1 + k u + ...).
// We use k u (1 + 2 k u), which is >= gamma_k while k u <= 1/2 and stays finite beyond
// (where every bound of this form is weak). exact carries its own rounding to long
// double, at most 2^-64 |S|.
template <class T>
float_sum sum_with_bound(std::span<const T> x, long double u) {
    preduce::detail::exact_sum s;
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

} // namespace preduce::test::oracle
