#pragma once
// Block layer: each warp reduces by shuffles, lane 0 of every warp parks its partial in
// shared memory, and warp 0 reduces those. Thread 0 returns the block's result, the
// threads' accumulators combined in thread order (warp_reduce.cuh keeps lane order).
#include "preduce/cuda/warp/warp_reduce.cuh"

namespace preduce::cuda::detail {

template <int BlockThreads, class R>
__device__ __forceinline__ typename R::accumulator_type block_reduce(typename R::accumulator_type x) {
    using A = typename R::accumulator_type;
    constexpr int warps = BlockThreads / 32;
    static_assert(BlockThreads % 32 == 0 && warps <= 32, "block size must be a multiple of 32, at most 1024");
    // Raw storage: accumulators need not be default-constructible.
    __shared__ alignas(A) unsigned char storage[warps * sizeof(A)];
    A* partial = reinterpret_cast<A*>(storage);

    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    x = warp_reduce<R>(x);
    if (lane == 0) partial[warp] = x;
    __syncthreads();
    if (warp == 0) {
        x = lane < warps ? partial[lane] : R::identity();
        x = warp_reduce<R>(x);
    }
    return x;
}

} // namespace preduce::cuda::detail
