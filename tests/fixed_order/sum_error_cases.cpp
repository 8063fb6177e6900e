// The merges' error term (preduce/detail/fixed_order/order.hpp, sum_error): Fast2Sum from the
// larger magnitude must give two_sum's error, the one exact rounding error of a + b, for every
// pair, or the compensated bits would change. Checked on random pairs of every exponent
// distance, on cancellations, ties, signed zeros, subnormals and the edges of the range.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "preduce/detail/fixed_order/order.hpp"

namespace det = preduce::detail::det;

namespace {

template <class T>
bool same_value(T a, T b) {  // equal as numbers; a zero's sign aside (no sum shows it: order.hpp)
    return a == b || (std::isnan(a) && std::isnan(b));
}

template <class T>
void check_pair(T a, T b) {
    const T s = a + b;
    if (!std::isfinite(s)) return;  // neither error is used then
    const T want = det::two_sum(a, b).c, got = det::sum_error(a, b, s);
    CAPTURE(a, b, s, want, got);
    REQUIRE(same_value(got, want));
    // and it is the error: s + e == a + b exactly (in twice the precision's significand)
    REQUIRE(static_cast<long double>(s) + static_cast<long double>(got) ==
            static_cast<long double>(a) + static_cast<long double>(b));
}

} // namespace

TEMPLATE_TEST_CASE("sum_error is two_sum's error, for every pair", "[fixed_order]", float, double) {
    using T = TestType;
    constexpr int digits = std::numeric_limits<T>::digits;
    std::mt19937_64 rng(20261205);
    std::uniform_real_distribution<T> mantissa(-2, 2);
    std::uniform_int_distribution<int> exponent(-digits - 8, digits + 8), coin(0, 5);
    for (int trial = 0; trial < 200000; ++trial) {
        const T a = std::ldexp(mantissa(rng), exponent(rng) * 3);
        T b = std::ldexp(mantissa(rng), exponent(rng));
        if (coin(rng) == 0) b = -a;                                                   // cancellation
        if (coin(rng) == 1) b = std::nextafter(-a, T(0));                            // near cancellation
        if (coin(rng) == 2) b = std::ldexp(a, -digits) * (coin(rng) % 2 ? 1 : -1);   // a tie
        check_pair(a, b);
        check_pair(b, a);
    }
    const T edges[] = {T(0), -T(0), std::numeric_limits<T>::denorm_min(), -std::numeric_limits<T>::denorm_min(),
                       std::numeric_limits<T>::min(), std::numeric_limits<T>::max() / 2, -std::numeric_limits<T>::max(),
                       T(1), -T(1), std::nextafter(T(1), T(2)), std::ldexp(T(1), -digits), T(3)};
    for (T a : edges)
        for (T b : edges) check_pair(a, b);
}
