#pragma once
// A compensated float lane's 128 values (in the chain's order) at the edge of exact summation
// (preduce/detail/fixed_order/exact_sum.hpp): 120 values just below 2, then 8 values of
// 2^-d (1 + 2^-23). Their exponents are d apart; each small value's last bit, 2^(-d-23), is
// below the unit of the partial sums it meets (near 240: 2^-45) exactly when d > 22, and
// there the chain rounds 8 times where a grouping that adds them among themselves first
// rounds once.
#include <array>
#include <cmath>

namespace preduce_test {

inline std::array<float, 128> edge_lane(int d) {
    std::array<float, 128> x;
    x.fill(2.0f - 0x1p-23f);
    for (int k = 120; k < 128; ++k) x[k] = std::ldexp(1.0f + 0x1p-23f, -d);
    return x;
}

} // namespace preduce_test
