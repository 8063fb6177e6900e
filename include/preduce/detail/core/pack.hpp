#pragma once
// pack<X...>: a tuple that is an aggregate, trivially copyable whenever its members are,
// and usable in device code (std::tuple is neither on every standard library). It holds
// the accumulators and results of fused reductions; get<I> and std::tuple_size make it
// work with structured bindings: auto [s, c] = reduce(...).
#include <cstddef>
#include <tuple>
#include <type_traits>

#include "preduce/detail/core/hd.hpp"

namespace preduce {

template <class... X>
struct pack;

template <class H>
struct pack<H> {
    H head;
    friend constexpr bool operator==(const pack&, const pack&) = default;
};

template <class H, class... X>
struct pack<H, X...> {
    H head;
    pack<X...> tail;
    friend constexpr bool operator==(const pack&, const pack&) = default;
};

namespace detail {
template <std::size_t I, class P>
struct pack_element;
template <class H, class... X>
struct pack_element<0, pack<H, X...>> { using type = H; };
template <std::size_t I, class H, class... X>
struct pack_element<I, pack<H, X...>> : pack_element<I - 1, pack<X...>> {};
} // namespace detail

template <std::size_t I, class... X>
PREDUCE_HD constexpr auto& get(pack<X...>& p) noexcept {
    if constexpr (I == 0) return p.head;
    else return get<I - 1>(p.tail);
}
template <std::size_t I, class... X>
PREDUCE_HD constexpr const auto& get(const pack<X...>& p) noexcept {
    if constexpr (I == 0) return p.head;
    else return get<I - 1>(p.tail);
}
// Structured bindings call get on an xvalue of the bound object.
template <std::size_t I, class... X>
PREDUCE_HD constexpr auto&& get(pack<X...>&& p) noexcept {
    return static_cast<std::remove_reference_t<decltype(get<I>(p))>&&>(get<I>(p));
}

// pack{a, b, c} without spelling the nesting.
template <class H>
PREDUCE_HD constexpr pack<H> make_pack(H h) {
    return {h};
}
template <class H, class X1, class... X>
PREDUCE_HD constexpr pack<H, X1, X...> make_pack(H h, X1 x1, X... x) {
    return {h, make_pack(x1, x...)};
}

} // namespace preduce

template <class... X>
struct std::tuple_size<preduce::pack<X...>> : std::integral_constant<std::size_t, sizeof...(X)> {};
template <std::size_t I, class... X>
struct std::tuple_element<I, preduce::pack<X...>> : preduce::detail::pack_element<I, preduce::pack<X...>> {};
