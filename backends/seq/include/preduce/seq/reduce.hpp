#pragma once
// The sequential backend: the definitional left fold, identity first, one element at
// a time in index order. Every other backend is tested against it. With
// precision::deterministic or compensated, floating-point sums take the fixed order of
// preduce/detail/algorithm/fixed_order/order.hpp instead, on one thread. Sums of 8- and 16-bit
// integers, exact in any order (wrap-around 64-bit addition), go through host_simd's lane
// fold, which gives the left fold's result with vector instructions; so do the segments
// (host_simd/segmented_folds.hpp, one task after another). What seq shares with openmp and kokkos is
// those kernels (host_simd/kernels.hpp); its whole-array fast order is its own left fold.
//   preduce::seq::reduce(data, n, op[, options])   op: built-in, reducer or user operation
//   preduce::seq::reduce(x, y, n, op[, options])   two inputs side by side (dot, zip transforms)
//   preduce::seq::reduce_segments / reduce_batches  one result per segment (detail/backend_contract/entry.hpp)
#include <cstddef>

#include "preduce/host_simd/kernels.hpp"
#include "preduce/detail/backend_contract/entry.hpp"
#include "preduce/seq/info.hpp"
#include "preduce/options.hpp"
#include "preduce/precision.hpp"
#include "preduce/source.hpp"

namespace preduce::seq {

template <precision P, class R>
typename R::result_type reduce_source(source_t<R> src, std::size_t n, const R& reducer, const options&) {
    if constexpr (P != precision::fast) {
        return host_simd::reduce_fixed<P>(reducer, src, n);
    } else if constexpr (::preduce::host_simd::is_narrow_int_sum_v<R>) {
        return reducer.finish(host_simd::kernels<R>::fold(reducer, src, 0, n, ::preduce::host_simd::use_avx2()));
    } else {
        auto acc = R::identity();
        for (std::size_t i = 0; i < n; ++i) acc = R::combine(acc, reducer.lift(src[i], i));
        return reducer.finish(acc);
    }
}

// One result per segment (detail/algorithm/segment_layout.hpp), one segment after another.
template <precision P, class R>
void reduce_segments_source(source_t<R> src, std::size_t, const ::preduce::detail::segment_layout& layout, const R& reducer,
                            typename R::result_type* out, const options&) {
    const host_simd::executor one_thread{1, nullptr, [](const void*, std::size_t count, host_simd::task_ref task) {
        for (std::size_t t = 0; t < count; ++t) task(t);
    }};
    host_simd::segments<P>(reducer, src, layout, out, one_thread);
}

PREDUCE_BACKEND_ENTRY_POINTS

} // namespace preduce::seq
