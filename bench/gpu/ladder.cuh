#pragma once
// The seed chapter's ladder, kept as named variants so the benchmark can tell its story
// next to the production path (reduce.cuh). Float sum only, as in the chapter; these are
// teaching baselines, not part of the front end.
//   rung 1 (atomic):    every thread atomicAdds its element into the result.
//   rung 2 (seed tree): one element per thread into shared memory (identity padding),
//                       halving stride with __syncthreads, one atomicAdd per block.
//   rung 3:             the production path (preduce::cuda::reduce_async).
#include <cuda_runtime_api.h>

#include <cstddef>

#include "preduce/cuda/runtime/check.hpp"

namespace ladder {

namespace kernels {
__global__ inline void atomic_per_element(const float* __restrict__ data, std::size_t n, float* result) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(result, data[i]);
}

template <int BlockThreads>
__global__ void seed_tree(const float* __restrict__ data, std::size_t n, float* result) {
    static_assert((BlockThreads & (BlockThreads - 1)) == 0, "the halving stride needs a power-of-two block");
    __shared__ float sdata[BlockThreads];
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * BlockThreads + threadIdx.x;
    sdata[threadIdx.x] = i < n ? data[i] : 0.0f;  // Act 1: load, identity padding
    __syncthreads();
    for (int stride = BlockThreads / 2; stride > 0; stride /= 2) {  // Act 2: halving stride
        if (threadIdx.x < stride) sdata[threadIdx.x] += sdata[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(result, sdata[0]);  // Act 3: one atomic per block
}
} // namespace kernels

inline constexpr int seed_block_threads = 256;  // the chapter's block size

inline unsigned grid_of(std::size_t n, int block) { return static_cast<unsigned>((n + block - 1) / block); }

// Both rungs accumulate into *d_result, which the caller zeroes first (cudaMemsetAsync).
inline void sum_atomic_per_element(const float* d_data, std::size_t n, float* d_result, cudaStream_t s) {
    if (n == 0) return;
    kernels::atomic_per_element<<<grid_of(n, 256), 256, 0, s>>>(d_data, n, d_result);
    preduce::cuda::detail::check(cudaGetLastError(), "ladder atomic_per_element launch");
}

inline void sum_seed_tree(const float* d_data, std::size_t n, float* d_result, cudaStream_t s) {
    if (n == 0) return;
    kernels::seed_tree<seed_block_threads><<<grid_of(n, seed_block_threads), seed_block_threads, 0, s>>>(d_data, n, d_result);
    preduce::cuda::detail::check(cudaGetLastError(), "ladder seed_tree launch");
}

} // namespace ladder
