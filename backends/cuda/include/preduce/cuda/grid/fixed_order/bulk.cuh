#pragma once
// fixed_blocks_bulk (sm_90 and later): fixed_blocks' one-lane blocks streamed through shared
// memory by bulk copies, and bulk_wave, which opts a kernel into the shared memory it needs.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <type_traits>

#include "preduce/cuda/grid/bulk_copy.cuh"
#include "preduce/cuda/grid/fixed_order/blocks.cuh"
#include "preduce/cuda/grid/fixed_order/tree.cuh"
#include "preduce/cuda/grid/launch.cuh"
#include "preduce/cuda/tuning.hpp"
#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/precision.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda::detail::fixed {

// The bulk form of the block pass (sm_90 and later): the blocks of fixed_blocks' one-lane
// form and the same adds in the same order, but each warp streams its full blocks through
// shared memory: chunks of bulk_rows<R> rows (32 elements of each array a row), bulk_depth
// of them per warp in flight by bulk copies (bulk_copy.cuh), and lane j adds element j of
// each row of a chunk in turn. CTA c takes the blocks [c * share, (c + 1) * share), share a
// power of two (bulk_share), its warp w the blocks start + w, start + w + 8, ...; so a
// CTA's blocks are an aligned subtree of the block tree, which with the in-launch tree the
// CTA folds itself, in shared memory: only the shares' values then meet, in one round of
// the tree (hand_on: one count, one read of them) whatever the number of blocks. Streaming
// whole chunks keeps more of a warp's bytes in flight than fixed_blocks' scalar loads, so
// where it runs it reads the blocks faster than fixed_blocks does; each CTA takes one
// contiguous share, since warps taking blocks grid-stride were much slower
// (docs/fixed-order-gpu.md). The chunks' depth and size are tuning (tuning.hpp).
inline constexpr int bulk_depth = tuning::bulk_depth;
inline constexpr std::size_t bulk_chunk_bytes = tuning::bulk_chunk_bytes;

template <class S>
struct bulk_arrays;  // elements of one row position in all arrays, in bytes; element sizes
template <class T>
struct bulk_arrays<const T*> {
    static constexpr std::size_t bytes = sizeof(T);
    static constexpr bool sizes_ok = (sizeof(T) & (sizeof(T) - 1)) == 0 && sizeof(T) <= 16;
};
template <class A, class B>
struct bulk_arrays<zip_source<A, B>> {
    static constexpr std::size_t bytes = sizeof(A) + sizeof(B);
    static constexpr bool sizes_ok = bulk_arrays<const A*>::sizes_ok && bulk_arrays<const B*>::sizes_ok;
};

// Rows of a chunk: bulk_chunk_bytes of all arrays, at most a block.
template <class R>
inline constexpr std::size_t bulk_rows = std::min(fixed_order::block / 32, bulk_chunk_bytes / (32 * bulk_arrays<source_t<R>>::bytes));
template <class R>
inline constexpr std::size_t bulk_stage_bytes = bulk_rows<R> * 32 * bulk_arrays<source_t<R>>::bytes;
// Whether R's source streams in such chunks: element sizes of powers of two, whole chunks per block.
template <class R>
inline constexpr bool bulk_shape_v = bulk_arrays<source_t<R>>::sizes_ok && bulk_rows<R> > 0 &&
                                     (fixed_order::block / 32) % bulk_rows<R> == 0;
// Dynamic shared memory of a CTA: its warps' stages.
template <class R>
inline constexpr std::size_t bulk_shared_bytes = static_cast<std::size_t>(warps_per_cta) * bulk_depth * bulk_stage_bytes<R>;

// Starts the copy of rows [first / 32, first / 32 + bulk_rows) of every array into stage,
// completing on bar (the stage holds the rows of the first array, then those of the second).
template <class R>
__device__ __forceinline__ void bulk_fetch(unsigned char* stage, source_t<R> src, std::size_t first, unsigned long long* bar) {
    using S = source_t<R>;
    bulk::barrier_expect(bar, static_cast<unsigned>(bulk_stage_bytes<R>));
    if constexpr (std::is_pointer_v<S>) {
        bulk::copy(stage, src + first, static_cast<unsigned>(bulk_stage_bytes<R>), bar);
    } else {
        constexpr std::size_t first_bytes = bulk_rows<R> * 32 * sizeof(*S{}.first);
        bulk::copy(stage, src.first + first, static_cast<unsigned>(first_bytes), bar);
        bulk::copy(stage + first_bytes, src.second + first, static_cast<unsigned>(bulk_stage_bytes<R> - first_bytes), bar);
    }
}

// Element `lane` of row k of a stage.
template <class R>
__device__ __forceinline__ typename R::value_type bulk_value(const unsigned char* stage, std::size_t k, unsigned lane) {
    using S = source_t<R>;
    if constexpr (std::is_pointer_v<S>) {
        return reinterpret_cast<S>(stage)[k * 32 + lane];
    } else {
        using F = std::remove_cv_t<std::remove_pointer_t<decltype(S{}.first)>>;
        using G = std::remove_cv_t<std::remove_pointer_t<decltype(S{}.second)>>;
        const F* a = reinterpret_cast<const F*>(stage);
        const G* b = reinterpret_cast<const G*>(stage + bulk_rows<R> * 32 * sizeof(F));
        return {a[k * 32 + lane], b[k * 32 + lane]};
    }
}

// Blocks of each CTA of a bulk pass of m blocks on `ctas` CTAs: the power of two at or above
// an even share (the CTAs past the last share have none).
__host__ __device__ constexpr std::size_t bulk_share(std::size_t m, std::size_t ctas) {
    const std::size_t even = (m + ctas - 1) / ctas;
    std::size_t share = 1;
    while (share < even) share *= 2;
    return share;
}

template <precision P, class R>
__global__ void __launch_bounds__(block_threads)
    fixed_blocks_bulk(R r, source_t<R> src, std::size_t n, std::size_t base,
                      fixed_order::value_t<P, typename R::accumulator_type>* __restrict__ v,
                      typename R::result_type* __restrict__ d_result, unsigned* counters) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    using A = typename R::accumulator_type;
    using V = fixed_order::value_t<P, A>;
    constexpr std::size_t rows = bulk_rows<R>, chunks = fixed_order::block / 32 / rows, stage_bytes = bulk_stage_bytes<R>;
    constexpr int U = rows < static_cast<std::size_t>(loads_in_flight) ? static_cast<int>(rows) : loads_in_flight;
    extern __shared__ __align__(128) unsigned char stages[];
    __shared__ unsigned long long bars[warps_per_cta][bulk_depth];
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    unsigned char* ring = stages + static_cast<std::size_t>(warp) * bulk_depth * stage_bytes;
    unsigned long long* bar = bars[warp];
    if (lane == 0) {
        for (int d = 0; d < bulk_depth; ++d) bulk::barrier_init(bar + d, 1);
        bulk::barrier_init_fence();
    }
    __syncwarp();

    constexpr std::size_t G = fold_group<V>;
    __shared__ alignas(16) V fold_space[G];
    const std::size_t m = fixed_order::block_count(n), full = n / fixed_order::block;
    const std::size_t share = bulk_share(m, gridDim.x), shares = (m + share - 1) / share;
    const std::size_t start = static_cast<std::size_t>(blockIdx.x) * share < m ? blockIdx.x * share : m;
    const std::size_t end = start + share < m ? start + share : m;
    // The CTA folds its share itself where the share's values and the shares' values each
    // fit fold_space; else its block values go to v for count_and_fold's groups.
    const bool own_tree = counters != nullptr && share <= G && shares <= G;
    const auto keep = [&](std::size_t b, const V& value) {
        if (own_tree) fold_space[b - start] = value;
        else v[b] = value;
    };
    const std::size_t mine = start + warp, end_full = end < full ? end : full;
    // Chunk j of this warp: chunk j % chunks of block mine + (j / chunks) * warps_per_cta.
    const std::size_t total = mine < end_full ? (end_full - mine + warps_per_cta - 1) / warps_per_cta * chunks : 0;
    const auto block_of = [&](std::size_t j) { return mine + j / chunks * warps_per_cta; };
    const auto fetch = [&](std::size_t j) {
        if (lane == 0 && j < total)
            bulk_fetch<R>(ring + j % bulk_depth * stage_bytes, src, block_of(j) * fixed_order::block + j % chunks * rows * 32,
                          bar + j % bulk_depth);
    };
    for (std::size_t j = 0; j < bulk_depth; ++j) fetch(j);
    V acc = fixed_order::zero<P, A>(R::identity());
    for (std::size_t j = 0; j < total; ++j) {
        const std::size_t b = block_of(j), c = j % chunks;
        if (c == 0) acc = fixed_order::zero<P, A>(R::identity());
        bulk::barrier_wait(bar + j % bulk_depth, static_cast<unsigned>(j / bulk_depth % 2));
        const unsigned char* stage = ring + j % bulk_depth * stage_bytes;
        const std::size_t first = b * fixed_order::block + c * rows * 32;
        for (std::size_t k = 0; k < rows; k += U) {
            typename R::value_type x[U];
#pragma unroll
            for (int u = 0; u < U; ++u) x[u] = bulk_value<R>(stage, k + u, lane);
#pragma unroll
            for (int u = 0; u < U; ++u) fixed_order::add<P, A>(acc, r.lift(x[u], base + first + (k + u) * 32 + lane));
        }
        __syncwarp();  // every lane has read the stage before it is fetched into again
        fetch(j + bulk_depth);
        if (c == chunks - 1) {
            acc = lane_tree<P, A>(acc);
            if (lane == 0) keep(b, acc);
        }
    }
    // The short last block, from global memory, by the warp whose turn it is.
    if (full < m && full >= mine && full < end && (full - mine) % warps_per_cta == 0) {
        const V value = short_block<P>(r, src, n, base, full);
        if (lane == 0) keep(full, value);
    }
    if (counters == nullptr) return;
    if (!own_tree) {
        count_and_fold<P, R, true>(r, v, m, start, end, counters, d_result, fold_space);
        return;
    }
    if (start >= end) return;
    const V value = tree_in_shared<P, A, block_threads, G>(fold_space, end - start);
    hand_on<P>(r, value, v + blockIdx.x, shares, counters,
               [&] { return fold_last_round<P, A, block_threads>(fold_space, v, shares); }, d_result);
#else
    __trap();  // launched only where bulk_wave found a kernel compiled for sm_90 or later
#endif
}

// CTAs of `kernel` (an instance of fixed_blocks_bulk, with `shared` bytes of dynamic shared
// memory) in one full wave on the current device, after opting the kernel into that much
// shared memory; 0 where it cannot run there (no sm_90 code for the device, or not enough
// shared memory). The opt-in belongs to the kernel as one .cu file registered it: nvcc gives
// every file that instantiates a template kernel a host stub of its own, so the answer is kept
// per stub address and device, and the caller passes the stub it launches and the current
// device.
inline int bulk_wave(const void* kernel, std::size_t shared, int device) {
    struct known {
        const void* kernel;
        int device, blocks;
    };
    // Append-only: an entry is written whole before `count` publishes it, so the lookup on
    // every bulk launch takes no lock; the lock only keeps two first calls from racing.
    static std::array<known, 256> seen;
    static std::atomic<std::size_t> count{0};
    static std::mutex adding;
    const auto find = [&](std::size_t entries) -> const known* {
        for (std::size_t i = 0; i < entries; ++i)
            if (seen[i].kernel == kernel && seen[i].device == device) return &seen[i];
        return nullptr;
    };
    if (const known* k = find(count.load(std::memory_order_acquire))) return k->blocks;
    const std::lock_guard<std::mutex> hold(adding);
    const std::size_t entries = count.load(std::memory_order_relaxed);
    if (const known* k = find(entries)) return k->blocks;
    // With an error the application left pending, ask nothing now (a query can hand that
    // error back and clear it) and take the other forms: a later call asks.
    if (cudaPeekAtLastError() != cudaSuccess) return 0;
    int blocks = 0;
    cudaFuncAttributes attr{};
    int sms = 0, per_sm = 0;
    if (cudaFuncGetAttributes(&attr, kernel) == cudaSuccess && attr.ptxVersion >= 90 &&
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)) ==
            cudaSuccess &&
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) == cudaSuccess &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block_threads, shared) == cudaSuccess)
        blocks = sms * per_sm;
    else
        (void)cudaGetLastError();  // a failed query's own error
    if (entries < seen.size()) {  // past that many kernels and devices, asked again each time
        seen[entries] = {kernel, device, blocks};
        count.store(entries + 1, std::memory_order_release);
    }
    return blocks;
}

} // namespace preduce::cuda::detail::fixed
