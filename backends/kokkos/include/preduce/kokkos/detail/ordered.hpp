#pragma once
// Operand order for reducers that are not commutative (user operations unless they say
// otherwise: matrix products, concatenations). Kokkos does not say in which order
// parallel_reduce joins partial results, and the tree differs between Serial, OpenMP,
// Threads and CUDA and between versions, so these reducers never reach a join: a
// parallel_for folds each of `blocks` contiguous blocks from left to right into its own
// slot, and the host folds the slots in block order. For an associative combine every
// bracketing of x0 . x1 . ... . x(n-1) gives the left fold's result, so this is it.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>

#include "preduce/host_simd/lane_fold.hpp"
#include "preduce/kokkos/detail/fold.hpp"
#include "preduce/kokkos/detail/space.hpp"
#include "preduce/kokkos/detail/stage.hpp"
#include "preduce/source.hpp"

namespace preduce::kokkos::detail {

// Host execution spaces only, so a host function: host_fold is host code (for these
// reducers it is the plain left fold, compiled for AVX2 as well).
template <class R>
struct host_block_functor {
    source_t<R> src;
    R reducer;
    std::size_t n;
    std::size_t blocks;
    typename R::accumulator_type* out;
    bool avx2;
    void operator()(std::int64_t b) const {
        const auto i = static_cast<std::size_t>(b);
        out[i] = ::preduce::host_simd::host_fold(reducer, src, block_begin(i, blocks, n), block_begin(i + 1, blocks, n),
                                              avx2);
    }
};

template <class R>
struct device_block_functor {
    source_t<R> src;
    R reducer;
    std::size_t n;
    std::size_t blocks;
    typename R::accumulator_type* out;
    KOKKOS_INLINE_FUNCTION void operator()(std::int64_t b) const {
        const auto i = static_cast<std::size_t>(b);
        out[i] = in_order_fold(reducer, src, block_begin(i, blocks, n), block_begin(i + 1, blocks, n));
    }
};

// src must be readable from ExecSpace; 1 <= blocks, which bounds the host's serial tail.
template <class ExecSpace, class R>
typename R::accumulator_type ordered_fold(const R& reducer, source_t<R> src, std::size_t n, std::size_t blocks) {
    using A = typename R::accumulator_type;
    const auto partial = allocate<A, typename ExecSpace::memory_space>(blocks, "preduce::kokkos partials");
    const policy<ExecSpace> range(0, static_cast<std::int64_t>(blocks));
    if constexpr (is_host_space<ExecSpace>)
        Kokkos::parallel_for("preduce::kokkos::reduce (ordered)", range,
                             host_block_functor<R>{src, reducer, n, blocks, partial.data(),
                                                   ::preduce::host_simd::use_avx2()});
    else
        Kokkos::parallel_for("preduce::kokkos::reduce (ordered)", range,
                             device_block_functor<R>{src, reducer, n, blocks, partial.data()});
    // parallel_for may return before its work is done; a host space's mirror is the
    // View itself, so nothing else would wait for it.
    ExecSpace().fence();
    const auto slots = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), partial);
    A acc = R::identity();
    for (std::size_t b = 0; b < blocks; ++b) acc = R::combine(acc, slots(b));
    return acc;
}

} // namespace preduce::kokkos::detail
