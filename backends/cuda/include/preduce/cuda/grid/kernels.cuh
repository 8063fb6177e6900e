#pragma once
// Grid layer: the kernels. reduce_partials writes one accumulator per block (or, with
// a single block, the finished result); with a completion counter, the last block to
// finish then folds every block's accumulator and writes the result in the same launch.
// reduce_finalize folds the accumulators in a single block of a second launch. The only
// atomic is the counter, which decides which block folds, never what it adds: partials
// are written and folded in block order, by the same fold_partials in both forms, so the
// same GPU, grid and input give the same bits every run, in either form. Block order is
// also what non-commutative reducers need.
#include <cuda/atomic>

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "preduce/cuda/block/block_reduce.cuh"
#include "preduce/cuda/thread/ordered_fold.cuh"
#include "preduce/cuda/thread/thread_fold.cuh"
#include "preduce/reducers.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda::detail {

// Stores every byte of v, padding included (arg_result<int32> has 4 bytes of it): a plain
// assignment stores only the members, and the host's copy of the result would then read
// bytes no one wrote (compute-sanitizer initcheck reports exactly that).
template <class V>
__device__ __forceinline__ void store_whole(V* out, const V& v) {
    if constexpr (sizeof(V) % 4 == 0 && alignof(V) >= 4) {
        unsigned w[sizeof(V) / 4] = {};
        memcpy(w, &v, sizeof(V));
        unsigned* o = reinterpret_cast<unsigned*>(out);
#pragma unroll
        for (unsigned i = 0; i < sizeof(V) / 4; ++i) o[i] = w[i];
    } else {
        *out = v;
    }
}

// What a reduction leaves in device memory: the finished result (Finish), or the
// accumulator itself, for callers that combine several partial reductions on the host
// (one per GPU, multi_gpu.cuh) and finish once.
template <class R, bool Finish>
using output_t = std::conditional_t<Finish, typename R::result_type, typename R::accumulator_type>;

// Reads v from global memory past L1 (ld.global.cg): the last block reads accumulators
// that other SMs wrote during this launch, which this SM's L1 may not have seen.
template <class V>
__device__ __forceinline__ V load_from_l2(const V* p) {
    V v;
    if constexpr (sizeof(V) % 4 == 0 && alignof(V) >= 4) {
        unsigned w[sizeof(V) / 4];
        const unsigned* q = reinterpret_cast<const unsigned*>(p);
#pragma unroll
        for (unsigned i = 0; i < sizeof(V) / 4; ++i) w[i] = __ldcg(q + i);
        memcpy(&v, w, sizeof(V));
    } else {
        unsigned char b[sizeof(V)];
        const volatile unsigned char* q = reinterpret_cast<const volatile unsigned char*>(p);
        for (unsigned i = 0; i < sizeof(V); ++i) b[i] = q[i];
        memcpy(&v, b, sizeof(V));
    }
    return v;
}

// Adds `add` to the completion counter *counter at GPU scope, a release and an acquire in
// one: the stores this thread made, and those a barrier of its CTA ordered before it, are
// visible to whichever thread later reads the count; the stores of the threads that counted
// before are visible to this one, and after a barrier to its whole CTA. Returns the count
// before. A __threadfence on each side (a sequentially consistent fence) would order more
// than the hand-over needs, and costs the short reductions measurable time
// (docs/fixed-order-gpu.md).
__device__ __forceinline__ unsigned count_acq_rel(unsigned* counter, unsigned add) {
    ::cuda::atomic_ref<unsigned, ::cuda::thread_scope_device> count(*counter);
    return count.fetch_add(add, ::cuda::std::memory_order_acq_rel);
}

// The block's fold of partials[0, count) in block order: every thread of the block calls
// it, and block_reduce then gives thread 0 the whole fold. Load reads one partial.
template <int BlockThreads, class R, class Load>
__device__ __forceinline__ typename R::accumulator_type fold_partials(const typename R::accumulator_type* partials,
                                                                      std::size_t count, Load load) {
    auto acc = R::identity();
    if constexpr (is_commutative_v<R>) {
        for (std::size_t i = threadIdx.x; i < count; i += BlockThreads) acc = R::combine(acc, load(partials + i));
    } else {  // thread t folds the t-th contiguous run, so block_reduce sees them in order
        const run mine = run_of(count, BlockThreads, threadIdx.x);
        for (std::size_t i = mine.begin; i < mine.end; ++i) acc = R::combine(acc, load(partials + i));
    }
    return block_reduce<BlockThreads, R>(acc);
}

// Whether this block is the last of the grid to have stored its values, counted at *done:
// every thread calls it after its own stores; the last block sets the counter back to 0
// for the next launch on the same workspace, and reads the other blocks' values with
// load_from_l2.
__device__ __forceinline__ bool last_block_done(unsigned* done) {
    __shared__ bool last;
    __syncthreads();  // every store of the block happens before thread 0 counts it
    if (threadIdx.x == 0) {
        last = count_acq_rel(done, 1u) == gridDim.x - 1;
        if (last) *done = 0;
    }
    __syncthreads();  // the other blocks' values, acquired by thread 0, for every thread
    return last;
}

// partials[blockIdx.x] = this block's accumulator, or with done == nullptr and a single
// block, *result = the finished result. With done (a counter that is 0 at launch), the
// last block to finish also folds partials[0, gridDim.x) and writes *result.
template <int BlockThreads, class R>
__global__ void __launch_bounds__(BlockThreads)
    reduce_partials(R r, source_t<R> data, std::size_t n, std::size_t base,
                    typename R::accumulator_type* __restrict__ partials,
                    typename R::result_type* __restrict__ result, unsigned* done) {
    using A = typename R::accumulator_type;
    auto acc = thread_fold<BlockThreads>(r, data, n, base);
    acc = block_reduce<BlockThreads, R>(acc);
    if (done == nullptr) {
        if (threadIdx.x == 0) {
            if (result != nullptr) store_whole(result, r.finish(acc));  // single-block launch: done
            else store_whole(partials + blockIdx.x, acc);
        }
        return;
    }
    if (threadIdx.x == 0) store_whole(partials + blockIdx.x, acc);
    if (!last_block_done(done)) return;
    acc = fold_partials<BlockThreads, R>(partials, gridDim.x, [](const A* p) { return load_from_l2(p); });
    if (threadIdx.x == 0) store_whole(result, r.finish(acc));
}

// One block folds the `count` partials and writes the finished result (or, !Finish, the
// accumulator).
template <int BlockThreads, class R, bool Finish = true>
__global__ void __launch_bounds__(BlockThreads)
    reduce_finalize(R r, const typename R::accumulator_type* __restrict__ partials, std::size_t count,
                    output_t<R, Finish>* __restrict__ result) {
    using A = typename R::accumulator_type;
    const auto acc = fold_partials<BlockThreads, R>(partials, count, [](const A* p) { return *p; });
    if (threadIdx.x == 0) {
        if constexpr (Finish) store_whole(result, r.finish(acc));
        else store_whole(result, acc);
    }
}

} // namespace preduce::cuda::detail
