#pragma once
// Which family of backend::automatic's rules (preduce/automatic.hpp) an operation belongs to:
// the comparisons (min, max, minmax, argmin, argmax) or the sums (every other built-in
// operation, and operations of your own).
//   preduce::operation_family_of<float>(preduce::argmin) == preduce::operation_family::comparisons
#include <type_traits>

#include "preduce/automatic.hpp"
#include "preduce/detail/resolve.hpp"
#include "preduce/fused.hpp"
#include "preduce/reducers.hpp"

namespace preduce {

namespace detail {
template <class R>
inline constexpr operation_family family_of_reducer = operation_family::sums;
template <class R>
    requires(R::kind == combine_kind::min || R::kind == combine_kind::max)
inline constexpr operation_family family_of_reducer<R> = operation_family::comparisons;
template <class T>
inline constexpr operation_family family_of_reducer<argmin_reducer<T>> = operation_family::comparisons;
template <class T>
inline constexpr operation_family family_of_reducer<argmax_reducer<T>> = operation_family::comparisons;
template <class T>
inline constexpr operation_family family_of_reducer<minmax_reducer<T>> = operation_family::comparisons;
} // namespace detail

// The family of `op` over elements of type T.
template <class T, class Op>
constexpr operation_family operation_family_of(const Op& op) {
    return detail::family_of_reducer<std::remove_cvref_t<decltype(detail::resolve_reducer<T>(op))>>;
}

} // namespace preduce
