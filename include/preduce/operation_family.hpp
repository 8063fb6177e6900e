#pragma once
// Which family of backend::automatic's rules (preduce/automatic.hpp) an operation belongs to:
// the comparisons (min, max, minmax, argmin, argmax) or the sums (every other built-in
// operation, and operations of your own).
//   preduce::operation_family_of<float>(preduce::argmin) == preduce::operation_family::comparisons
#include <type_traits>

#include "preduce/automatic.hpp"
#include "preduce/detail/routing/resolve.hpp"
#include "preduce/fused.hpp"
#include "preduce/reducers.hpp"

namespace preduce {

namespace detail {
// Comparisons: kind min or max, or a reducer that says `compares` (argmin, argmax), or a fused
// reducer whose parts all compare (minmax).
template <class R>
constexpr bool compares() {
    if constexpr (requires { R::compares; }) return static_cast<bool>(R::compares);
    else if constexpr (requires { R::kind; }) return R::kind == combine_kind::min || R::kind == combine_kind::max;
    else return false;
}
template <class... R>
constexpr bool compares_fused(const fused_reducer<R...>*) {
    return (compares<R>() && ...);
}
template <class R>
inline constexpr operation_family family_of_reducer = [] {
    if constexpr (requires { compares_fused(static_cast<const R*>(nullptr)); })
        return compares_fused(static_cast<const R*>(nullptr)) ? operation_family::comparisons : operation_family::sums;
    else return compares<R>() ? operation_family::comparisons : operation_family::sums;
}();
} // namespace detail

// The family of `op` over elements of type T.
template <class T, class Op>
constexpr operation_family operation_family_of(const Op& op) {
    return detail::family_of_reducer<std::remove_cvref_t<decltype(detail::resolve_reducer<T>(op))>>;
}

} // namespace preduce
