#pragma once
// What every backend's public reduce() overloads do before reaching the backend's own
// reduce_source(src, n, reducer, opts): turn the caller's op into a reducer for the
// element type, check it reads that type, and reshape the result for ops that ask.
#include <type_traits>

#include "preduce/detail/resolve.hpp"
#include "preduce/detail/type_name.hpp"

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
