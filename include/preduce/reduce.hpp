#pragma once
// preduce::reduce(backend, data, op[, options]): the front end.
//   reduce(b, data, n, op) / reduce(b, range, op)          one input
//   reduce(b, x, y, n, op) / reduce(b, xrange, yrange, op) two inputs read side by side (dot)
// It runs the operations compiled into the library (detail/backend_contract/builtins.hpp). User-defined
// operations, transforms and other fused combinations go through a backend's header-only
// template instead (preduce/<backend>/reduce.hpp), compiled by that backend's compiler.
#include <cstddef>
#include <ranges>
#include <span>
#include <string>
#include <type_traits>

#include "preduce/backend.hpp"
#include "preduce/detail/routing/linking.hpp"
#include "preduce/detail/routing/resolve.hpp"
#include "preduce/errors.hpp"
#include "preduce/ops.hpp"
#include "preduce/options.hpp"

namespace preduce {

namespace detail {
template <class V, class Op>
using front_result_t = std::remove_cvref_t<decltype(project(
    std::declval<const Op&>(), std::declval<typename resolved_t<V, Op>::result_type>()))>;

template <class V, class R>
constexpr void check_compiled() {
    static_assert(is_compiled_v<R>,
                  "preduce::reduce(backend, ...) runs the operations compiled into the library. For user-defined "
                  "operations, transform(), and fused() combinations other than fused(sum, count_if) call a "
                  "backend's header-only template: preduce::seq::reduce, preduce::openmp::reduce, "
                  "preduce::kokkos::reduce, or preduce::cuda::reduce (compiled by nvcc)");
}
} // namespace detail

template <class V, class Op>
using result_of_t = detail::front_result_t<V, Op>;

namespace detail {
// Another library's type for one of preduce's element types, bit for bit: specialised
// with `using type = <preduce type>` (preduce/cuda_half.hpp does so for CUDA's __half and
// __nv_bfloat16). element_t<T> is the preduce type an array of T is read as.
template <class T>
struct element_alias {
    using type = T;
};
template <class T>
using element_t = typename element_alias<std::remove_const_t<T>>::type;
} // namespace detail

// Pointer + size. n is 64-bit: 2^31 and 2^32 elements are ordinary inputs.
template <class T, operation_for<detail::element_t<T>> Op>
result_of_t<detail::element_t<T>, Op> reduce(backend b, const T* data, std::size_t n, const Op& op,
                                             const options& opts = {}) {
    using V = detail::element_t<T>;
    static_assert(sizeof(V) == sizeof(T) && alignof(V) == alignof(T), "an element_alias must have the bits of its type");
    static_assert(is_builtin_element_v<V>,
                  "preduce::reduce compiles int8/16/32/64, uint8/16/32/64, float16, bfloat16, float and double; "
                  "for other element types call a backend's header-only template (preduce/<backend>/reduce.hpp)");
    const auto reducer = detail::resolve_reducer<V>(op);
    detail::check_compiled<V, std::remove_cvref_t<decltype(reducer)>>();
    return detail::project(op, detail::route(b, reinterpret_cast<const V*>(data), n, reducer, opts));
}

// Two inputs of n elements each, element i of the reduction being {x[i], y[i]}.
template <class A, class B, operation_for<zip_value<std::remove_const_t<A>, std::remove_const_t<B>>> Op>
result_of_t<zip_value<std::remove_const_t<A>, std::remove_const_t<B>>, Op> reduce(backend b, const A* x, const B* y,
                                                                                  std::size_t n, const Op& op,
                                                                                  const options& opts = {}) {
    using V = zip_value<std::remove_const_t<A>, std::remove_const_t<B>>;
    const auto reducer = detail::resolve_reducer<V>(op);
    detail::check_compiled<V, std::remove_cvref_t<decltype(reducer)>>();
    return detail::project(op, detail::route(b, source_t<decltype(reducer)>{x, y}, n, reducer, opts));
}

// Any contiguous range: std::vector, std::array, std::span, C arrays.
template <std::ranges::contiguous_range Range, class Op>
    requires std::ranges::sized_range<Range> &&
             operation_for<Op, std::remove_cvref_t<std::ranges::range_value_t<Range>>>
auto reduce(backend b, Range&& data, const Op& op, const options& opts = {}) {
    return reduce(b, std::ranges::data(data), static_cast<std::size_t>(std::ranges::size(data)), op, opts);
}

template <std::ranges::contiguous_range X, std::ranges::contiguous_range Y, class Op>
    requires std::ranges::sized_range<X> && std::ranges::sized_range<Y> &&
             operation_for<Op, zip_value<std::remove_cvref_t<std::ranges::range_value_t<X>>,
                                         std::remove_cvref_t<std::ranges::range_value_t<Y>>>>
auto reduce(backend b, X&& x, Y&& y, const Op& op, const options& opts = {}) {
    const auto nx = static_cast<std::size_t>(std::ranges::size(x));
    const auto ny = static_cast<std::size_t>(std::ranges::size(y));
    if (nx != ny)
        throw invalid_argument("preduce::reduce: the two inputs differ in length (" + std::to_string(nx) + " and " +
                               std::to_string(ny) + " elements)");
    return reduce(b, std::ranges::data(x), std::ranges::data(y), nx, op, opts);
}

} // namespace preduce
