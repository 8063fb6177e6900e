#pragma once
// Hopper's bulk copies from global to shared memory (cp.async.bulk, sm_90 and later), which
// complete on a shared-memory barrier (mbarrier): one thread starts the copy of a whole
// chunk, and the threads that read the chunk wait on the barrier's phase. A copy keeps its
// bytes in flight without registers or load instructions, so a warp that adds slowly (the
// fixed order's lanes are chains of dependent adds) still keeps memory busy.
// Device code only; each call must be compiled for __CUDA_ARCH__ >= 900.
#include <cuda_runtime_api.h>

namespace preduce::cuda::detail::bulk {

__device__ __forceinline__ unsigned shared_address(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// A barrier that completes a phase on `arrivals` arrivals plus the bytes they announced.
__device__ __forceinline__ void barrier_init(unsigned long long* bar, unsigned arrivals) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(bar)), "r"(arrivals) : "memory");
}

// Makes the initialised barriers visible to the copy engine before the first copy.
__device__ __forceinline__ void barrier_init_fence() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }

// Arrives on the barrier and announces `bytes` that copies will complete in this phase.
__device__ __forceinline__ void barrier_expect(unsigned long long* bar, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(bar)), "r"(bytes)
                 : "memory");
}

// Copies `bytes` (a multiple of 16; both addresses 16-byte aligned) from global src to
// shared dst, completing them on bar.
__device__ __forceinline__ void copy(void* dst, const void* src, unsigned bytes, unsigned long long* bar) {
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(shared_address(dst)),
        "l"(src), "r"(bytes), "r"(shared_address(bar))
        : "memory");
}

// Waits until the barrier's phase of the given parity (0, 1, 0, ... for its uses) completed.
__device__ __forceinline__ void barrier_wait(unsigned long long* bar, unsigned parity) {
    unsigned done = 0;
    do {
        asm volatile(
            "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
            : "=r"(done)
            : "r"(shared_address(bar)), "r"(parity)
            : "memory");
    } while (done == 0);
}

} // namespace preduce::cuda::detail::bulk
