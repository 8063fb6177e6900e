#pragma once
// From what a caller passes (an op such as preduce::sum, a reducer, or a user operation)
// to the reducer a backend runs for element type V, and from that reducer's result to
// what the caller gets (ops such as mean and minmax reshape it: project()).
#include <type_traits>

#include "preduce/custom.hpp"

namespace preduce::detail {

template <class V, class X>
constexpr auto resolve_reducer(const X& x) {
    if constexpr (requires { x.template reducer_for<V>(); }) return as_reducer(x.template reducer_for<V>());
    else return as_reducer(x);
}

template <class V, class X>
using resolved_t = decltype(resolve_reducer<V>(std::declval<const X&>()));

template <class X, class Result>
constexpr auto project(const X& x, Result&& r) {
    if constexpr (requires { x.project(r); }) return x.project(r);
    else return std::forward<Result>(r);
}

// An operation the front end accepts for element type V: an op with reducer_for<V>(), a
// reducer of V, or something that looks like a user operation on V.
template <class X, class V>
concept operation_like = requires(const X& x) { x.template reducer_for<V>(); } || reducer<X> ||
                         requires { typename X::value_type; };

} // namespace preduce::detail
