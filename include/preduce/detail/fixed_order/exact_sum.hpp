#pragma once
// When floats sum exactly in double, so that any grouping of their additions gives the bits
// of the fixed order's chain (order.hpp: a compensated float lane adds its floats, converted,
// to a double one after the other).
//
// Floats are multiples of the unit in the last place of the smallest nonzero one among them,
// 2^(e_low - 150) (e: the biased exponent field, 1 for subnormals), and below 2^(e_top - 126)
// in magnitude (e_top: the largest one's). A partial sum of at most 2^L of them is such a
// multiple below 2^(e_top - 126 + L), which a double holds exactly when that is at most 2^53
// units: e_top - e_low <= 29 - L. Then no addition rounds, every partial sum is the exact
// sum of its terms, and every grouping ends with the same value; a zero sum is -0.0 exactly
// when every term is -0.0, in any grouping, since x + y is -0.0 only for -0.0 + -0.0. An
// infinity or NaN among them fails the test, so those sums keep to the chain.
#include <cstdint>

#include "preduce/detail/hd.hpp"

#if !defined(__CUDA_ARCH__)
#include <bit>
#endif

namespace preduce::detail::det {

// The magnitudes of a set of floats, as what sums_exactly needs: the largest one's bits, and
// the smallest nonzero one's bits minus one (a zero's 0 - 1 wraps to the largest unsigned,
// so zeros never count as the smallest).
struct float_span {
    std::uint32_t top = 0;
    std::uint32_t low_minus_one = 0xffffffffu;
};

PREDUCE_HD inline std::uint32_t magnitude_bits(float x) noexcept {
#if defined(__CUDA_ARCH__)
    return __float_as_uint(x) & 0x7fffffffu;
#else
    return std::bit_cast<std::uint32_t>(x) & 0x7fffffffu;
#endif
}

// s with x in it.
PREDUCE_HD inline void widen(float_span& s, float x) noexcept {
    const std::uint32_t m = magnitude_bits(x);
    s.top = s.top > m ? s.top : m;
    s.low_minus_one = s.low_minus_one < m - 1u ? s.low_minus_one : m - 1u;
}

// The span of both sets.
PREDUCE_HD inline float_span joined(float_span a, float_span b) noexcept {
    return {a.top > b.top ? a.top : b.top, a.low_minus_one < b.low_minus_one ? a.low_minus_one : b.low_minus_one};
}

// Whether every partial sum, in double, of at most 2^log2_terms floats of the span s is exact
// (see the top of this file).
template <int log2_terms>
PREDUCE_HD inline bool sums_exactly(float_span s) noexcept {
    static_assert(log2_terms >= 0 && log2_terms <= 29);
    const std::uint32_t e_top = s.top >> 23;
    const std::uint32_t e_low_field = (s.low_minus_one + 1u) >> 23;  // 0 for subnormals, and with no nonzero value
    const std::uint32_t e_low = e_low_field > 1u ? e_low_field : 1u;
    return e_top < 255u && (e_top <= e_low || e_top - e_low <= 29u - log2_terms);
}

} // namespace preduce::detail::det
