#pragma once
// Grid layer: the kernels. reduce_partials writes one accumulator per block (or, with
// a single block, the finished result); reduce_finalize folds those accumulators in a
// single block. No atomics: the same GPU, grid and input give the same bits every run.
// Partials are written and folded in block order, which non-commutative reducers need.
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

template <int BlockThreads, class R>
__global__ void __launch_bounds__(BlockThreads)
    reduce_partials(R r, source_t<R> data, std::size_t n, std::size_t base,
                    typename R::accumulator_type* __restrict__ partials,
                    typename R::result_type* __restrict__ result) {
    auto acc = thread_fold<BlockThreads>(r, data, n, base);
    acc = block_reduce<BlockThreads, R>(acc);
    if (threadIdx.x == 0) {
        if (result != nullptr) store_whole(result, r.finish(acc));  // single-block launch: done
        else store_whole(partials + blockIdx.x, acc);
    }
}

// One block folds the `count` partials and writes the finished result (or, !Finish, the
// accumulator).
template <int BlockThreads, class R, bool Finish = true>
__global__ void __launch_bounds__(BlockThreads)
    reduce_finalize(R r, const typename R::accumulator_type* __restrict__ partials, std::size_t count,
                    output_t<R, Finish>* __restrict__ result) {
    auto acc = R::identity();
    if constexpr (is_commutative_v<R>) {
        for (std::size_t i = threadIdx.x; i < count; i += BlockThreads) acc = R::combine(acc, partials[i]);
    } else {  // thread t folds the t-th contiguous run, so block_reduce sees them in order
        const run mine = run_of(count, BlockThreads, threadIdx.x);
        for (std::size_t i = mine.begin; i < mine.end; ++i) acc = R::combine(acc, partials[i]);
    }
    acc = block_reduce<BlockThreads, R>(acc);
    if (threadIdx.x == 0) {
        if constexpr (Finish) store_whole(result, r.finish(acc));
        else store_whole(result, acc);
    }
}

} // namespace preduce::cuda::detail
