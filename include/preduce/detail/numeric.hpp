#pragma once
// Small numeric rules every backend shares, written once so the semantics cannot drift.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "preduce/detail/hd.hpp"

namespace preduce::detail {

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
