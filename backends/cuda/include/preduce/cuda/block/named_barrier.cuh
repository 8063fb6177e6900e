#pragma once
// Named barriers (bar.arrive / bar.sync with an id and a thread count): a hand-off between
// some warps of a CTA, where __syncthreads would hold every warp. A producer warp writes
// shared memory and arrives without waiting; the consumer warp syncs on the same id and count,
// and then sees what the producers wrote before they arrived. Id 0 is __syncthreads' own; a
// CTA has 16. The count is the threads of all warps that take part, a multiple of 32.
namespace preduce::cuda::detail {

__device__ __forceinline__ void named_arrive(unsigned id, unsigned threads) {
    asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

__device__ __forceinline__ void named_sync(unsigned id, unsigned threads) {
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

} // namespace preduce::cuda::detail
