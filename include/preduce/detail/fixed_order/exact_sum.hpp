#pragma once
// When a compensated float lane's double sum is exact, so that its adds may run in any
// order. A compensated float lane (order.hpp, wide_t) adds up to 128 floats, each converted
// to double, in one chain of double additions. Where every partial sum of those floats is
// a double, no addition rounds: the chain's result is the exact sum, and so is the result of
// any other order or grouping of the same adds. Kernels then add a lane's floats in several
// chains at once and get the chain's bits.
//
// A sufficient test, from the floats' exponents alone: with q the unit in the last place
// of the smallest nonzero |x| (2^(e - 150) for a biased exponent e, 2^-149 for subnormals),
// every float, and so every partial sum, is a whole multiple of q; and every partial sum is
// at most sum |x| < terms * 2^(e_top - 126) in magnitude (e_top: the largest |x|'s biased
// exponent). A multiple of q below 2^53 q is a double. With at most 2^k terms that holds
// where e_top - e_low <= 29 - k (e_low: the smallest nonzero |x|'s exponent, subnormals
// counting as 1): 22 for a lane's 128. The bound is tight: 127 floats of the largest
// mantissa at e_top and one of the smallest bit at e_top - 23 sum to 54 bits.
// Infinities and NaNs never pass (their sum's bits are the chain's anyway: the kernels then
// run the chain).
#include <cstring>

#include "preduce/detail/hd.hpp"

namespace preduce::detail::det {

// The magnitudes of some floats: the bits of the largest |x|, and of the smallest nonzero
// |x| less one (0xffffffff while there is none). Zeros add exactly to anything.
struct float_span {
    unsigned top = 0;
    unsigned low = 0xffffffffu;
};

PREDUCE_HD inline void widen(float_span& s, float x) noexcept {
    unsigned bits;
    std::memcpy(&bits, &x, sizeof(bits));
    bits &= 0x7fffffffu;
    s.top = bits > s.top ? bits : s.top;
    const unsigned below = bits - 1u;  // zero wraps past every nonzero magnitude
    s.low = below < s.low ? below : s.low;
}

PREDUCE_HD inline float_span joined(const float_span& a, const float_span& b) noexcept {
    return {a.top > b.top ? a.top : b.top, a.low < b.low ? a.low : b.low};
}

// Whether every partial sum of at most 2^log2_terms floats within span s is a double.
template <int log2_terms>
PREDUCE_HD inline bool sums_exactly(const float_span& s) noexcept {
    static_assert(log2_terms >= 0 && log2_terms <= 29);
    const unsigned top = s.top >> 23, low = (s.low + 1u) >> 23;  // biased exponents
    if (top == 0xffu) return false;                                // an infinity or a NaN
    const unsigned t = top > 0 ? top : 1u, l = low > 0 ? low : 1u;
    return t <= l + static_cast<unsigned>(29 - log2_terms);
}

} // namespace preduce::detail::det
