#pragma once
// preduce::reduce(backend, data, op[, options]): the front end.
#include <cstddef>
#include <ranges>
#include <span>
#include <type_traits>

#include "preduce/backend.hpp"
#include "preduce/detail/dispatch.hpp"
#include "preduce/ops.hpp"
#include "preduce/options.hpp"

namespace preduce {

template <class T, class Op>
using result_of_t = typename decltype(std::declval<const Op&>().template reducer_for<T>())::result_type;

// Pointer + size. n is 64-bit: 2^31 and 2^32 elements are ordinary inputs.
template <class T, operation_for<std::remove_const_t<T>> Op>
result_of_t<std::remove_const_t<T>, Op> reduce(backend b, const T* data, std::size_t n, const Op& op,
                                                const options& opts = {}) {
    using V = std::remove_const_t<T>;
    static_assert(is_builtin_element_v<V>,
                  "preduce::reduce compiles int32, uint32, int64, uint64, float and double; for other "
                  "element types call a backend's header-only template (preduce/<backend>/reduce.hpp)");
    const auto reducer = op.template reducer_for<V>();
    detail::check_input(data, n, sizeof(V));
    return detail::dispatch(b, data, n, reducer, opts);
}

// Any contiguous range: std::vector, std::array, std::span, C arrays.
template <std::ranges::contiguous_range Range, class Op>
    requires std::ranges::sized_range<Range> &&
             operation_for<Op, std::remove_cvref_t<std::ranges::range_value_t<Range>>>
auto reduce(backend b, Range&& data, const Op& op, const options& opts = {}) {
    return reduce(b, std::ranges::data(data), static_cast<std::size_t>(std::ranges::size(data)), op, opts);
}

} // namespace preduce
