#pragma once
// Thread layer for reducers that are not commutative: the result must be the in-order
// left fold, any bracketing. Block b of the grid owns the b-th contiguous run of the
// input and thread t of the block the t-th contiguous run of the block's, folded in index
// order. The warp and block layers combine threads in thread order and the finalize
// kernel combines blocks in block order (kernels.cuh), so every combine has the earlier
// elements on its left. The cost is coalescing: a warp's 32 lanes read 32 separate runs
// (each lane's next elements come from L1), so this path reads at about half the speed of
// the vector tiles (docs/cuda-tuning.md), which is acceptable for the user operations that
// take it; every built-in is commutative and never does.
#include <cstddef>

#include "preduce/cuda/thread/thread_state.cuh"
#include "preduce/source.hpp"

namespace preduce::cuda::detail {

struct run {
    std::size_t begin, end;
};

// The part-th of `parts` contiguous runs of [0, n), ceil-sized, empty past the end.
__device__ __forceinline__ run run_of(std::size_t n, std::size_t parts, std::size_t part) {
    const std::size_t per = (n + parts - 1) / parts;
    const std::size_t begin = part * per < n ? part * per : n;
    return {begin, n - begin < per ? n : begin + per};
}

template <int BlockThreads, class R>
__device__ __forceinline__ typename R::accumulator_type ordered_fold(const R& r, source_t<R> src, std::size_t n,
                                                                     std::size_t base, grid_slot g) {
    const run block = run_of(n, g.blocks, g.block);
    const run mine = run_of(block.end - block.begin, BlockThreads, threadIdx.x);
    auto acc = R::identity();
    std::size_t i = block.begin + mine.begin;
    const std::size_t end = block.begin + mine.end;
    // Four loads in flight before their combines.
    for (; i + 4 <= end; i += 4) {
        const auto x0 = src[i], x1 = src[i + 1], x2 = src[i + 2], x3 = src[i + 3];
        acc = R::combine(acc, r.lift(x0, base + i));
        acc = R::combine(acc, r.lift(x1, base + i + 1));
        acc = R::combine(acc, r.lift(x2, base + i + 2));
        acc = R::combine(acc, r.lift(x3, base + i + 3));
    }
    for (; i < end; ++i) acc = R::combine(acc, r.lift(src[i], base + i));
    return acc;
}

} // namespace preduce::cuda::detail
