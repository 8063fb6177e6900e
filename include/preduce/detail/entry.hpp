#pragma once
// What every backend's public reduce() overloads do before reaching the backend's own
// reduce_source(src, n, reducer, opts): turn the caller's op into a reducer for the
// element type, check it reads that type, and reshape the result for ops that ask.
#include <cstddef>
#include <type_traits>

#include "preduce/detail/resolve.hpp"
#include "preduce/detail/type_name.hpp"
#include "preduce/options.hpp"
#include "preduce/source.hpp"

namespace preduce::detail {

template <class V, class Op, class Run>
auto run_op(const Op& op, Run&& run) {
    const auto r = resolve_reducer<V>(op);
    using R = std::remove_cvref_t<decltype(r)>;
    static_assert(std::is_same_v<typename R::value_type, V>,
                  "preduce: the operation's value_type differs from the element type of the data");
    return project(op, run(r));
}

} // namespace preduce::detail

// The two public overloads every backend offers around its reduce_source(src, n, reducer,
// opts), expanded inside the backend's namespace (the same set for all four backends):
//   reduce(data, n, op[, options])      one input
//   reduce(x, y, n, op[, options])      two inputs read side by side (zip_source)
#define PREDUCE_BACKEND_ENTRY_POINTS                                                                  \
    template <class T, class Op>                                                                      \
    auto reduce(const T* data, std::size_t n, const Op& op, const ::preduce::options& opts = {}) {    \
        return ::preduce::detail::run_op<T>(op, [&](const auto& r) { return reduce_source(data, n, r, opts); }); \
    }                                                                                                 \
    template <class A, class B, class Op>                                                             \
    auto reduce(const A* x, const B* y, std::size_t n, const Op& op, const ::preduce::options& opts = {}) { \
        return ::preduce::detail::run_op<::preduce::zip_value<A, B>>(op, [&](const auto& r) {          \
            return reduce_source(::preduce::zip_source<A, B>{x, y}, n, r, opts);                      \
        });                                                                                           \
    }
