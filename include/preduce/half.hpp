#pragma once
// The 16-bit floating-point element types: preduce::float16 (IEEE 754 binary16: 1 sign,
// 5 exponent, 10 fraction bits) and preduce::bfloat16 (the upper half of a binary32:
// 1 sign, 8 exponent, 7 fraction bits). Both are storage types: 16 bits, trivially
// copyable, with the same size, alignment and bit layout as the compilers' own 16-bit
// floats (_Float16, __bf16) and CUDA's __half and __nv_bfloat16, so an array of any of
// those is an array of these. They do no arithmetic of their own: preduce widens every
// element to float32, which holds every float16 and bfloat16 value exactly (to_float), and
// rounds back only where a caller asks (to_float16, to_bfloat16: round to nearest, ties to
// even, as IEEE conversion does).
#include <bit>
#include <cstdint>

#include "preduce/detail/core/hd.hpp"

namespace preduce {

struct float16 {
    std::uint16_t bits;
};

struct bfloat16 {
    std::uint16_t bits;
};

static_assert(sizeof(float16) == 2 && alignof(float16) == 2);
static_assert(sizeof(bfloat16) == 2 && alignof(bfloat16) == 2);

// Exact: every float16 is a float32 (subnormals become normal floats; on the host NaNs keep
// their sign and payload, shifted into the float's fraction, so a quiet NaN stays quiet). Selects, not
// branches, so that loops over float16 arrays vectorise; no float operation sees a
// subnormal operand, so a caller's denormals-are-zero mode cannot change the result.
PREDUCE_HD constexpr float to_float(float16 h) noexcept {
#if defined(__CUDA_ARCH__)
    // Device code: the GPU's own conversion, one instruction where the selects below take
    // about ten, which would bound a float16 sum by its instructions rather than by memory.
    // The same value for every pattern; every NaN comes out as the one NaN 0x7fffffff
    // (test_cuda_half checks both). No result depends on that: fast sums leave a NaN's bits
    // unspecified, fixed-order sums return the canonical quiet NaN, and
    // min/max/argmin/argmax and count_if work on the 16-bit patterns.
    if (!__builtin_is_constant_evaluated()) {
        float f;
        asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h.bits));
        return f;
    }
#endif
    const std::uint32_t sign = static_cast<std::uint32_t>(h.bits & 0x8000u) << 16;
    const std::uint32_t shifted = static_cast<std::uint32_t>(h.bits & 0x7fffu) << 13;  // exponent and fraction
    const std::uint32_t exponent = shifted & 0x0f800000u;
    // Normal: rebias the exponent by 127 - 15. Infinity and NaN: to the float's all-ones
    // exponent. Zero and subnormal: fraction * 2^-24, exact (fraction < 2^10).
    const std::uint32_t is_small = 0u - static_cast<std::uint32_t>(exponent == 0);  // all ones or zero
    const std::uint32_t is_special = 0u - static_cast<std::uint32_t>(exponent == 0x0f800000u);
    const std::uint32_t normal = shifted + (112u << 23) + (is_special & (112u << 23));
    const std::uint32_t small =
        std::bit_cast<std::uint32_t>(static_cast<float>(static_cast<std::int32_t>(h.bits & 0x3ffu)) * 0x1p-24f);
    return std::bit_cast<float>(sign | (small & is_small) | (normal & ~is_small));
}

// Exact: a bfloat16 is the upper half of a float32.
PREDUCE_HD constexpr float to_float(bfloat16 h) noexcept {
    return std::bit_cast<float>(static_cast<std::uint32_t>(h.bits) << 16);
}

// Nearest float16, ties to even; beyond the largest finite value (65504) by half an ulp or
// more: infinity of the same sign. A NaN stays a NaN of the same sign, made quiet, with
// the upper bits of its payload.
PREDUCE_HD constexpr float16 to_float16(float f) noexcept {
    const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
    const auto sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
    const std::uint32_t magnitude = x & 0x7fffffffu;
    if (magnitude > 0x7f800000u)  // NaN
        return {static_cast<std::uint16_t>(sign | 0x7e00u | ((magnitude >> 13) & 0x3ffu))};
    if (magnitude >= 0x477ff000u)  // >= 65520 = 65504 + half an ulp: rounds to infinity (ties to even too)
        return {static_cast<std::uint16_t>(sign | 0x7c00u)};
    if (magnitude >= 0x38800000u) {  // >= 2^-14: a normal float16
        // Rebias the exponent (127 -> 15) and round the 23-bit fraction to 10 bits; a carry
        // out of the fraction correctly increments the exponent.
        const std::uint32_t rebased = magnitude - (112u << 23);
        const std::uint32_t odd = (rebased >> 13) & 1u;
        return {static_cast<std::uint16_t>(sign | ((rebased + 0xfffu + odd) >> 13))};
    }
    // Below 2^-14: a subnormal float16 (or zero), a multiple of 2^-24. The float's
    // significand (with its implicit bit) shifted right, rounded to nearest even.
    const std::uint32_t exponent = magnitude >> 23;
    if (exponent < 102u) return {sign};  // below 2^-25: rounds to zero (2^-25 itself is a tie: zero is even)
    const std::uint32_t significand = (magnitude & 0x7fffffu) | 0x800000u;
    const std::uint32_t shift = 126u - exponent;  // 14 .. 24
    const std::uint32_t kept = significand >> shift;
    const std::uint32_t rest = significand & ((1u << shift) - 1u);
    const std::uint32_t half = 1u << (shift - 1u);
    const std::uint32_t rounded = kept + ((rest > half || (rest == half && (kept & 1u))) ? 1u : 0u);
    return {static_cast<std::uint16_t>(sign | rounded)};
}

// Nearest bfloat16, ties to even (overflow to infinity follows from the carry). A NaN
// stays a NaN of the same sign, made quiet, with the upper bits of its payload.
PREDUCE_HD constexpr bfloat16 to_bfloat16(float f) noexcept {
    const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return {static_cast<std::uint16_t>((x >> 16) | 0x40u)};
    const std::uint32_t odd = (x >> 16) & 1u;
    return {static_cast<std::uint16_t>((x + 0x7fffu + odd) >> 16)};
}

} // namespace preduce
