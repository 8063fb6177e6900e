#pragma once
// Small numeric rules every backend shares, written once so the semantics cannot drift.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "preduce/detail/core/hd.hpp"
#include "preduce/half.hpp"

namespace preduce::detail {

// ---- element types -------------------------------------------------------------------
// The 16-bit floats are storage only (half.hpp); every other element type is arithmetic.
template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, float16> || std::is_same_v<T, bfloat16>;

// Element types with IEEE semantics (NaN, infinities, signed zeros): what min/max order
// with -0 below +0, what propagates NaN, what sums in the fixed order.
template <class T>
inline constexpr bool is_float_element_v = std::is_floating_point_v<T> || is_half_v<T>;

// What sums, products and the transforms (sumsq, asum, dot) of an element type accumulate
// in and return: 16-bit floats in float (a bfloat16 accumulator stops growing at 256),
// 8- and 16-bit integers in 64 bits of their signedness (NumPy's rule: no wrap at 8 bits);
// every other type in itself.
template <class T>
struct compute {
    using type = T;
};
template <class T>
    requires is_half_v<T>
struct compute<T> {
    using type = float;
};
template <class T>
    requires(std::is_integral_v<T> && sizeof(T) < 4)
struct compute<T> {
    using type = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
};
template <class T>
using compute_t = typename compute<T>::type;

// An element's exact value in compute_t<T> (every 16-bit float is a float32).
template <class T>
PREDUCE_HD constexpr compute_t<T> widen(T x) noexcept {
    if constexpr (is_half_v<T>) return to_float(x);
    else return static_cast<compute_t<T>>(x);
}

// The nearest 16-bit float of a float, ties to even.
template <class T>
    requires is_half_v<T>
PREDUCE_HD constexpr T round_from_float(float f) noexcept {
    if constexpr (std::is_same_v<T, float16>) return to_float16(f);
    else return to_bfloat16(f);
}

// The unsigned integer of a type's width: the bits min/max/argmin/argmax order floats by.
template <class T>
using bits_t = std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                  std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>;

// Signed integers accumulate in their unsigned twin: unsigned overflow is defined
// (mod 2^N), and converting back is defined in C++20, so sums wrap without UB.
template <class T>
struct wrap { using type = T; };
template <class T>
    requires(std::is_integral_v<T> && std::is_signed_v<T>)
struct wrap<T> { using type = std::make_unsigned_t<T>; };
template <class T>
using wrap_t = typename wrap<T>::type;

// The identity of IEEE addition is -0.0, not +0.0: -0.0 + x == x for every x, while
// +0.0 + -0.0 == +0.0. With -0.0 as padding, a sum of negative zeros stays -0.0 whatever
// the tree shape; the empty sum is -0.0, which compares equal to 0.
template <class A>
PREDUCE_HD constexpr A additive_identity() noexcept {
    if constexpr (std::is_floating_point_v<A>) return A(-0.0);
    else return A(0);
}

template <class T>
PREDUCE_HD constexpr bool is_nan(T x) noexcept {
    if constexpr (std::is_floating_point_v<T>)
        return x != x;  // no fast-math anywhere in preduce, so this test is honest
    else
        return false;
}
PREDUCE_HD constexpr bool is_nan(float16 x) noexcept { return (x.bits & 0x7fffu) > 0x7c00u; }
PREDUCE_HD constexpr bool is_nan(bfloat16 x) noexcept { return (x.bits & 0x7fffu) > 0x7f80u; }

// +infinity and the canonical quiet NaN of a floating element type (numeric_limits knows
// only the arithmetic ones).
template <class T>
PREDUCE_HD constexpr T infinity() noexcept {
    if constexpr (std::is_same_v<T, float16>) return {0x7c00};
    else if constexpr (std::is_same_v<T, bfloat16>) return {0x7f80};
    else return std::numeric_limits<T>::infinity();
}
template <class T>
PREDUCE_HD constexpr T negative_infinity() noexcept {
    if constexpr (is_half_v<T>) return {static_cast<std::uint16_t>(infinity<T>().bits | 0x8000u)};
    else return -std::numeric_limits<T>::infinity();
}
template <class T>
PREDUCE_HD constexpr T quiet_nan() noexcept {
    if constexpr (std::is_same_v<T, float16>) return {0x7e00};
    else if constexpr (std::is_same_v<T, bfloat16>) return {0x7fc0};
    else return std::numeric_limits<T>::quiet_NaN();
}

template <class T>
PREDUCE_HD inline bool sign_bit(T x) noexcept {
#if defined(__CUDA_ARCH__)
    return signbit(x);
#else
    return std::signbit(x);
#endif
}

// Order used by min/max/argmin/argmax on non-NaN values: the usual one, except that
// -0.0 sorts below +0.0 (IEEE 754-2019 minimum/maximum). Without it min(-0.0, +0.0)
// would depend on which operand the tree happened to see first.
template <class T>
PREDUCE_HD inline bool ordered_less(T a, T b) noexcept {
    if constexpr (std::is_floating_point_v<T>)
        return a < b || (a == b && sign_bit(a) && !sign_bit(b));
    else
        return a < b;
}

} // namespace preduce::detail
