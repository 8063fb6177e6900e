#pragma once
// Reducers whose results have the bits of another reducer's: a reducer says so with
//     using same_bits_as = <the other reducer>;
// (reducers.hpp: a signed 32/64-bit integer sum and its unsigned twin both add in the
// unsigned type; wide_sum of 64-bit types is their sum; nansum of integers is their sum.)
// The compiled built-ins of such a reducer forward to the other's (builtins.hpp, and the
// host kernels, host_simd/kernels.hpp), so each distinct result is compiled once. The other
// reducer is stateless, its input the same bytes read as its own element type, and its
// result the same bits read as this reducer's result type.
#include <bit>
#include <type_traits>

#include "preduce/source.hpp"

namespace preduce::detail {

template <class R>
struct computed_as {
    using type = R;
};
template <class R>
    requires requires { typename R::same_bits_as; } && (!std::is_same_v<typename R::same_bits_as, R>)
struct computed_as<R> {
    using type = typename computed_as<typename R::same_bits_as>::type;
};

// The reducer that computes R's results: R itself, or the end of its same_bits_as chain.
template <class R>
using computed_as_t = typename computed_as<R>::type;

template <class R>
inline constexpr bool computed_elsewhere_v = !std::is_same_v<computed_as_t<R>, R>;

// R's input, as the computing reducer reads it.
template <class R>
source_t<computed_as_t<R>> computing_source(source_t<R> src) noexcept {
    using S = source_t<computed_as_t<R>>;
    if constexpr (is_zip_source_v<S>)
        return S{reinterpret_cast<decltype(S{}.first)>(src.first), reinterpret_cast<decltype(S{}.second)>(src.second)};
    else return reinterpret_cast<S>(src);
}

// The computing reducer's result, as R's.
template <class R>
typename R::result_type computed_result(const typename computed_as_t<R>::result_type& r) noexcept {
    static_assert(sizeof(typename R::result_type) == sizeof(typename computed_as_t<R>::result_type));
    return std::bit_cast<typename R::result_type>(r);
}

template <class R>
typename computed_as_t<R>::result_type* computing_output(typename R::result_type* out) noexcept {
    return reinterpret_cast<typename computed_as_t<R>::result_type*>(out);
}

} // namespace preduce::detail
