#pragma once
// The sequential backend: the definitional left fold, identity first, one element at
// a time in index order. Every other backend is tested against it. With
// precision::deterministic or compensated, floating-point sums take the fixed order of
// detail/deterministic.hpp instead, on one thread.
//   preduce::seq::reduce(data, n, op[, options])   op: built-in, reducer or user operation
//   preduce::seq::reduce(x, y, n, op[, options])   two inputs side by side (dot, zip transforms)
#include <cstddef>

#include "preduce/detail/fixed_order_host.hpp"
#include "preduce/detail/entry.hpp"
#include "preduce/options.hpp"
#include "preduce/source.hpp"

namespace preduce::seq {

template <class R>
typename R::result_type reduce_source(source_t<R> src, std::size_t n, const R& reducer, const options& opts = {}) {
    namespace det = ::preduce::detail::det;
    if constexpr (det::takes_fixed_order_v<R>) {
        if (opts.precision == precision::deterministic) return det::reduce_host<precision::deterministic>(reducer, src, n);
        if (opts.precision == precision::compensated) return det::reduce_host<precision::compensated>(reducer, src, n);
    } else {
        det::check_precision<R>(opts.precision);
    }
    auto acc = R::identity();
    for (std::size_t i = 0; i < n; ++i) acc = R::combine(acc, reducer.lift(src[i], i));
    return reducer.finish(acc);
}

PREDUCE_BACKEND_ENTRY_POINTS

} // namespace preduce::seq
