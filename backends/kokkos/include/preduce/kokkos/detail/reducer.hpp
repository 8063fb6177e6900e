#pragma once
// Which Kokkos reducer carries a preduce reducer R through Kokkos::parallel_reduce.
//
// Kokkos' own Sum/Prod/Min/Max are used where they mean exactly what R::combine means:
// R::kind says combine is plain +, *, min or max on an arithmetic accumulator, and Kokkos'
// identity has the bits of R::identity() (checked at compile time, part of the choice).
// Signed sums need no care there: preduce accumulates them in the unsigned twin
// (detail::wrap_t), whose + wraps. Everything else goes through combine_reducer, whose
// init is R::identity() and whose join is R::combine: float min/max (Kokkos' identity is
// -FLT_MAX, not -inf, and its comparison drops NaN), argmin/argmax (lowest index on ties,
// NaN first; Kokkos' MinLoc has had tie and all-equal bugs), float sums whose identity is
// -0.0 (Kokkos::Sum starts from +0.0), and any custom reducer.
#include <Kokkos_Core.hpp>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "preduce/reducers.hpp"

namespace preduce::kokkos::detail {

template <class R>
struct combine_reducer {
    using reducer = combine_reducer;
    using value_type = typename R::accumulator_type;
    using result_view_type = Kokkos::View<value_type, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

    result_view_type result;

    KOKKOS_INLINE_FUNCTION explicit combine_reducer(value_type& r) : result(&r) {}
    KOKKOS_INLINE_FUNCTION explicit combine_reducer(const result_view_type& r) : result(r) {}

    KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v = R::identity(); }
    KOKKOS_INLINE_FUNCTION void join(value_type& dest, const value_type& src) const { dest = R::combine(dest, src); }
#if KOKKOS_VERSION < 30700
    // Kokkos before 3.7 joins through volatile references on some paths (CUDA, OpenMP).
    // Copy bytewise: a volatile aggregate has no usable copy constructor or assignment.
    KOKKOS_INLINE_FUNCTION void join(volatile value_type& dest, const volatile value_type& src) const {
        value_type d, s;
        load(d, dest);
        load(s, src);
        const value_type out = R::combine(d, s);
        auto* to = reinterpret_cast<volatile unsigned char*>(&dest);
        const auto* from = reinterpret_cast<const unsigned char*>(&out);
        for (std::size_t b = 0; b < sizeof(value_type); ++b) to[b] = from[b];
    }
    KOKKOS_INLINE_FUNCTION static void load(value_type& to, const volatile value_type& from) {
        const auto* f = reinterpret_cast<const volatile unsigned char*>(&from);
        auto* t = reinterpret_cast<unsigned char*>(&to);
        for (std::size_t b = 0; b < sizeof(value_type); ++b) t[b] = f[b];
    }
#endif
    KOKKOS_INLINE_FUNCTION value_type& reference() const { return *result.data(); }
    KOKKOS_INLINE_FUNCTION result_view_type view() const { return result; }
    KOKKOS_INLINE_FUNCTION bool references_scalar() const { return true; }
};

// R::identity() usable in a constant expression (true for every built-in reducer).
template <class R>
concept constant_identity = requires { typename std::bool_constant<(static_cast<void>(R::identity()), true)>; };

enum class kokkos_builtin { none, sum, prod, min, max };

// Same value, bit for bit: +0.0 and -0.0 differ (the identity of IEEE + is -0.0, Kokkos'
// Sum starts from +0.0, and a sum of negative zeros tells them apart).
template <class A>
constexpr bool same_bits(A a, A b) {
    if constexpr (std::is_same_v<A, float>) return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
    else if constexpr (std::is_same_v<A, double>) return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
    else if constexpr (std::is_floating_point_v<A>) return false;  // long double: padding bits; do not guess
    else return a == b;
}

// The Kokkos reducer equal to R, or none. The identity comparison is part of the choice,
// so a reducer whose identity differs from Kokkos' silently takes combine_reducer, which
// is always right; src/info.cpp asserts that the built-in reducers do take Kokkos' path.
template <class R>
constexpr kokkos_builtin builtin_for() {
    using A = typename R::accumulator_type;
    if constexpr (!std::is_arithmetic_v<A> || !constant_identity<R>) {
        return kokkos_builtin::none;
    } else {
        using id = Kokkos::reduction_identity<A>;
        if constexpr (R::kind == combine_kind::plus)
            return same_bits<A>(id::sum(), R::identity()) ? kokkos_builtin::sum : kokkos_builtin::none;
        else if constexpr (R::kind == combine_kind::times)
            return same_bits<A>(id::prod(), R::identity()) ? kokkos_builtin::prod : kokkos_builtin::none;
        // Floats never get here with min/max (their kind is custom: NaN), and Kokkos'
        // float identities are +-FLT_MAX, not +-inf, so the identity test refuses them too.
        else if constexpr (R::kind == combine_kind::min && std::is_integral_v<A>)
            return same_bits<A>(id::min(), R::identity()) ? kokkos_builtin::min : kokkos_builtin::none;
        else if constexpr (R::kind == combine_kind::max && std::is_integral_v<A>)
            return same_bits<A>(id::max(), R::identity()) ? kokkos_builtin::max : kokkos_builtin::none;
        else
            return kokkos_builtin::none;
    }
}

// The Kokkos reducer for R, writing its result into `result` (host memory, or a local
// variable of device code for a nested reduction).
template <class R>
KOKKOS_INLINE_FUNCTION auto make_reducer(typename R::accumulator_type& result) {
    using A = typename R::accumulator_type;
    constexpr kokkos_builtin b = builtin_for<R>();
    if constexpr (b == kokkos_builtin::sum) return Kokkos::Sum<A, Kokkos::HostSpace>(result);
    else if constexpr (b == kokkos_builtin::prod) return Kokkos::Prod<A, Kokkos::HostSpace>(result);
    else if constexpr (b == kokkos_builtin::min) return Kokkos::Min<A, Kokkos::HostSpace>(result);
    else if constexpr (b == kokkos_builtin::max) return Kokkos::Max<A, Kokkos::HostSpace>(result);
    else return combine_reducer<R>(result);
}

} // namespace preduce::kokkos::detail
