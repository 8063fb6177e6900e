#pragma once
// precision::deterministic and precision::compensated on the GPU: the fixed order of
// preduce/detail/fixed_order/order.hpp, bit for bit.
//
//  - fixed_blocks: the block values; CTAs take units of 8C blocks grid-stride, a warp C
//    blocks of a unit. With C = 1 lane j of the warp adds lift(x[b*4096 + j + 32k]) for k = 0, 1, ... in
//    increasing k (coalesced scalar loads, 16 in flight per lane). With C > 1 (16-byte
//    vectors of C elements, aligned inputs with at least a wave of units) 32/C threads
//    share a block and each owns C of its lanes: thread c loads the vector at
//    b*4096 + 32k + c*C and adds its element q to lane c*C + q, the same adds in the same
//    order with a quarter of the load instructions. Then the lane tree w = 16..1 (own value
//    on the left), across threads by shuffles and inside a thread for w < C. What a warp
//    computes depends on b alone, never on which warp or CTA of the grid runs it, so every
//    grid gives the same v.
//  - The block tree, in the same launch: v is cut into aligned groups of fold_group values,
//    whole subtrees of the tree (node i at level L covers the values [i*2^L, (i+1)*2^L) ∩
//    [0, m); an odd last value moves to index m/2, which covers the same range). When a
//    CTA has stored its block values it counts them per group; the CTA that completes a
//    group folds it in shared memory, and the CTA that folds the last group folds the
//    group values. Which CTA folds never changes what is added. The counting waits for
//    nothing while the CTA reads, so the block pass runs at the speed of the plain one.
//  - fixed_tree: the block tree in launches of its own, one CTA per aligned group of
//    tree_group<V> values in shared memory, for block values computed in parts (host
//    staging, several GPUs).
//  - fixed_blocks_bulk (sm_90 and later, the deterministic sums): the one-lane form's blocks
//    and adds, its warps streaming their blocks through shared memory by bulk copies.
//  - With no more blocks than one wave of CTAs, fixed_blocks_staged gives each block a CTA
//    that loads it whole (or, for doubles past a wave of those, half of it at a time) before
//    its warp adds (the same adds, one trip to memory per load), and the last CTA folds the
//    tree in shared memory.
//
// The lane, lane-tree and block-tree arithmetic is det::add / det::merge / det::result
// themselves, which add with __fadd_rn/__dadd_rn in device code: never contracted into an
// FMA with the product a lift may compute, never reassociated.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "preduce/cuda/runtime/check.hpp"
#include "preduce/cuda/grid/bulk_copy.cuh"
#include "preduce/cuda/grid/launch.cuh"
#include "preduce/cuda/grid/kernels.cuh"
#include "preduce/cuda/runtime/memory.hpp"
#include "preduce/detail/fixed_order/order.hpp"
#include "preduce/errors.hpp"
#include "preduce/precision.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda::detail::fixed {

namespace det = ::preduce::detail::det;

inline constexpr int block_threads = 256;                      // 8 warps, 8 blocks of data in flight per CTA
inline constexpr int warps_per_cta = block_threads / 32;
inline constexpr int loads_in_flight = 16;                     // per lane, issued before the first add
inline constexpr int tree_threads = 1024;
// Values one CTA of fixed_tree folds: 32 KiB of shared memory (8192 floats, 2048 double
// pairs), so one tree launch covers up to 2^25 float elements.
template <class V>
inline constexpr std::size_t tree_group = (std::size_t{32} << 10) / sizeof(V);
// Values one CTA of fixed_blocks or fixed_blocks_staged folds in 16 KiB of shared memory
// (4096 floats, 2048 doubles, 1024 compensated pairs): a group of fixed_blocks' in-launch
// block tree, or the whole tree of the staged kernel's blocks. A tree of up to that many
// blocks is one fold.
template <class V>
inline constexpr std::size_t fold_group = (std::size_t{16} << 10) / sizeof(V);
static_assert(det::lanes == 32 && det::block % (32 * loads_in_flight) == 0);

// det::block_tree of s[0, count) in shared memory, in place, by all Threads threads of the
// CTA (count <= G); s[0] holds the tree's value afterwards.
template <precision P, class A, int Threads, std::size_t G>
__device__ __forceinline__ void tree_in_shared(det::value_t<P, A>* s, std::size_t count) {
    using V = det::value_t<P, A>;
    static_assert((G & (G - 1)) == 0 && G >= 2 * Threads, "groups must be aligned subtrees: a power of two");
    constexpr std::size_t per_thread = G / 2 / Threads;
    __syncthreads();
    while (count > 1) {  // det::block_tree, in place: every read before any write
        const std::size_t half = count / 2;
        V mine[per_thread] = {};
#pragma unroll
        for (std::size_t t = 0; t < per_thread; ++t) {
            const std::size_t i = threadIdx.x + t * Threads;
            if (i < half) mine[t] = det::merge<P, A>(s[2 * i], s[2 * i + 1]);
        }
        V carry{};
        const bool odd = count % 2 != 0;
        if (odd && threadIdx.x == 0) carry = s[count - 1];
        __syncthreads();
#pragma unroll
        for (std::size_t t = 0; t < per_thread; ++t) {
            const std::size_t i = threadIdx.x + t * Threads;
            if (i < half) s[i] = mine[t];
        }
        if (odd && threadIdx.x == 0) s[half] = carry;
        __syncthreads();
        count = half + (odd ? 1 : 0);
    }
}

template <precision P, class A>
__device__ __forceinline__ det::value_t<P, A> shfl_down(const det::value_t<P, A>& v, unsigned w) {
    if constexpr (P == precision::compensated)
        return {__shfl_down_sync(0xffffffffu, v.s, w), __shfl_down_sync(0xffffffffu, v.c, w)};
    else
        return __shfl_down_sync(0xffffffffu, v, w);
}

// The lanes' tree of one block, in the warp: w = 16, 8, ..., 1, each lane's own value on
// the left. Lane 0 ends with the block value.
template <precision P, class A>
__device__ __forceinline__ det::value_t<P, A> lane_tree(det::value_t<P, A> acc) {
#pragma unroll
    for (unsigned w = 16; w > 0; w /= 2) {
        const det::value_t<P, A> other = shfl_down<P, A>(acc, w);
        acc = det::merge<P, A>(acc, other);
    }
    return acc;
}

// Elements of src[i, i + C) as one aligned load per array: the C-lane form's vector.
template <int C, class T>
struct alignas(C * sizeof(T)) vector_run {
    T e[C];
};

template <int C, class S, class T>
__device__ __forceinline__ void load_run(S src, std::size_t i, T (&x)[C]) {
    if constexpr (std::is_pointer_v<S>) {
        const vector_run<C, T> v = *reinterpret_cast<const vector_run<C, T>*>(src + i);
#pragma unroll
        for (int q = 0; q < C; ++q) x[q] = v.e[q];
    } else {  // a zip_source: a vector of each array
        using F = std::remove_cv_t<std::remove_pointer_t<decltype(src.first)>>;
        using G = std::remove_cv_t<std::remove_pointer_t<decltype(src.second)>>;
        const vector_run<C, F> a = *reinterpret_cast<const vector_run<C, F>*>(src.first + i);
        const vector_run<C, G> b = *reinterpret_cast<const vector_run<C, G>*>(src.second + i);
#pragma unroll
        for (int q = 0; q < C; ++q) x[q] = {a.e[q], b.e[q]};
    }
}

// Lanes per thread of the vector form for R's source: C elements of at most 16 bytes in all,
// one aligned load per array; 1 where the elements do not pack into such vectors.
template <class T>
constexpr int lanes_of_type() {
    if constexpr (sizeof(T) != alignof(T) || (sizeof(T) & (sizeof(T) - 1)) != 0 || sizeof(T) > 8) return 1;
    else return sizeof(T) <= 4 ? 4 : 2;
}
template <class R>
constexpr int vector_lanes() {
    using S = source_t<R>;
    if constexpr (std::is_pointer_v<S>) {
        return lanes_of_type<std::remove_cv_t<std::remove_pointer_t<S>>>();
    } else {
        using F = std::remove_cv_t<std::remove_pointer_t<decltype(S{}.first)>>;
        using G = std::remove_cv_t<std::remove_pointer_t<decltype(S{}.second)>>;
        return sizeof(F) == sizeof(G) ? lanes_of_type<F>() : 1;
    }
}

template <int C, class T>
bool run_aligned(const T* p) {
    return reinterpret_cast<std::uintptr_t>(p) % (C * sizeof(T)) == 0;
}
template <int C, class S>
bool runs_aligned(S src) {
    if constexpr (std::is_pointer_v<S>) return run_aligned<C>(src);
    else return run_aligned<C>(src.first) && run_aligned<C>(src.second);
}

// Vectors a thread of the C-lane form loads before it adds: 128 bytes of one array (16 scalar
// loads in the one-lane form), half as many for two arrays or double lanes of float data,
// which need twice the registers. Measured on an H200, the block values of 2^28 floats alone
// (a standalone study, event time): 0.98 of CUB's sum's speed with 8 vectors, 0.96 with 4;
// compensated (double lanes) 0.97 with 4, 0.93 with 8.
template <precision P, class R, int C>
constexpr int runs_in_flight() {
    using A = typename R::accumulator_type;
    if constexpr (C == 1) return loads_in_flight;
    else if constexpr (is_zip_source_v<source_t<R>> || !std::is_same_v<det::wide_t<P, A>, A>) return 4;
    else return 8;
}

// The value of full block b by the 32 / C threads that share it: thread c adds lanes
// c*C .. c*C + C - 1 (nothing when !live; it still takes part in the shuffles), then the
// lane tree; thread c == 0 returns the block value.
template <precision P, class R, int C>
__device__ __forceinline__ det::value_t<P, typename R::accumulator_type> full_block(const R& r, source_t<R> src,
                                                                                    std::size_t base, std::size_t b,
                                                                                    unsigned c, bool live) {
    using A = typename R::accumulator_type;
    using V = det::value_t<P, A>;
    constexpr int U = runs_in_flight<P, R, C>();
    static_assert(det::block % (32 * U) == 0);
    V acc[C];
#pragma unroll
    for (int q = 0; q < C; ++q) acc[q] = det::zero<P, A>(R::identity());
    const std::size_t first = b * det::block + c * C;
    // Rows k .. k + U - 1 of 32 elements at a time. The C-lane form does not unroll across
    // batches: its U vectors per thread are the loads it keeps in flight.
    const auto rows = [&](std::size_t k) {
        typename R::value_type x[U][C];
        const auto row = src + (first + k);  // one address, constant offsets from it
#pragma unroll
        for (int u = 0; u < U; ++u) load_run<C>(row, 32 * static_cast<std::size_t>(u), x[u]);
#pragma unroll
        for (int u = 0; u < U; ++u)
#pragma unroll
            for (int q = 0; q < C; ++q)
                det::add<P, A>(acc[q], r.lift(x[u][q], base + first + k + 32 * static_cast<std::size_t>(u) + q));
    };
    if (live) {
        if constexpr (C == 1) {
            for (std::size_t k = 0; k < det::block; k += 32 * U) rows(k);
        } else {
#pragma unroll 1
            for (std::size_t k = 0; k < det::block; k += 32 * U) rows(k);
        }
    }
#pragma unroll
    for (int w = 16; w >= C; w /= 2)  // lane j + w sits w / C threads on
#pragma unroll
        for (int q = 0; q < C; ++q) acc[q] = det::merge<P, A>(acc[q], shfl_down<P, A>(acc[q], w / C));
#pragma unroll
    for (int w = C / 2; w > 0; w /= 2)  // lane j + w in the same thread
#pragma unroll
        for (int q = 0; q < w; ++q) acc[q] = det::merge<P, A>(acc[q], acc[q + w]);
    return acc[0];
}

// The value of the short last block b (n - b*4096 < 4096 elements), by a whole warp: lane j
// skips the positions past n. Lane 0 returns it.
template <precision P, class R>
__device__ __forceinline__ det::value_t<P, typename R::accumulator_type> short_block(const R& r, source_t<R> src,
                                                                                     std::size_t n, std::size_t base,
                                                                                     std::size_t b) {
    using A = typename R::accumulator_type;
    det::value_t<P, A> acc = det::zero<P, A>(R::identity());
    for (std::size_t i = b * det::block + threadIdx.x % 32; i < n; i += 32) det::add<P, A>(acc, r.lift(src[i], base + i));
    return lane_tree<P, A>(acc);
}

// The block tree of the count <= fold_group values *at(i), which other CTAs of this launch
// stored (read past L1), folded in the CTA's shared memory s by every thread of the CTA; s[0]
// holds it afterwards.
template <precision P, class A, class At>
__device__ __forceinline__ void fold_in_shared(det::value_t<P, A>* s, At at, std::size_t count) {
    for (std::size_t i = threadIdx.x; i < count; i += block_threads) s[i] = load_from_l2(at(i));
    tree_in_shared<P, A, block_threads, fold_group<det::value_t<P, A>>>(s, count);
}

// Folds group g of v[0, m) (fold_group values each, the last one possibly short) in the
// CTA's shared memory s, by every thread of the CTA. A single group is the whole tree: its
// finish(result(sum)) goes to *d_result. Else the group's value goes over v[g * fold_group],
// and the CTA that folds the last of the groups (counters[0] counts them, and is set back to
// 0) folds the group values and writes the result.
template <precision P, class R>
__device__ __forceinline__ void fold_group_of(const R& r, det::value_t<P, typename R::accumulator_type>* v,
                                              std::size_t m, std::size_t g, unsigned* counters,
                                              det::value_t<P, typename R::accumulator_type>* s,
                                              typename R::result_type* d_result) {
    using A = typename R::accumulator_type;
    constexpr std::size_t G = fold_group<det::value_t<P, A>>;
    __shared__ bool last;
    const std::size_t groups = (m + G - 1) / G;
    const std::size_t size = m - g * G < G ? m - g * G : G;
    fold_in_shared<P, A>(s, [&](std::size_t i) { return v + g * G + i; }, size);
    if (groups == 1) {
        if (threadIdx.x == 0) store_whole(d_result, r.finish(det::result<P, A>(s[0])));
        return;
    }
    if (threadIdx.x == 0) {
        v[g * G] = s[0];  // the group's first value: read by no one else any more
        __threadfence();
        last = atomicAdd(counters, 1u) + 1 == groups;
        if (last) counters[0] = 0;
    }
    __syncthreads();
    if (!last) return;
    __threadfence();
    fold_in_shared<P, A>(s, [&](std::size_t i) { return v + i * G; }, groups);
    if (threadIdx.x == 0) store_whole(d_result, r.finish(det::result<P, A>(s[0])));
}

// The in-launch block tree, after a CTA of block_threads threads stored the values of its
// blocks [b0, b1) (stored: whether this thread stored one): the CTA counts them per group of
// fold_group<V> (counters[1 + g]; the CTA that completes a group sets it back to 0), one
// group per thread at a time, lists the groups it completes and folds them (fold_group_of).
// Every thread of the CTA calls it.
template <precision P, class R>
__device__ __forceinline__ void count_and_fold(const R& r, det::value_t<P, typename R::accumulator_type>* v,
                                               std::size_t m, std::size_t b0, std::size_t b1, bool stored,
                                               unsigned* counters, typename R::result_type* d_result) {
    using V = det::value_t<P, typename R::accumulator_type>;
    constexpr std::size_t G = fold_group<V>;
    __shared__ V s[G];
    __shared__ unsigned done_count;
    __shared__ std::size_t done[block_threads];
    if (b0 >= b1) return;
    if (stored) __threadfence();  // the stores of v are visible to every SM before they are counted
    const std::size_t g0 = b0 / G, groups_here = (b1 - 1) / G - g0 + 1;
    for (std::size_t k0 = 0; k0 < groups_here; k0 += block_threads) {
        if (threadIdx.x == 0) done_count = 0;
        __syncthreads();  // every store of the CTA (and the last round's folds) before the count
        const std::size_t g = g0 + k0 + threadIdx.x;
        if (k0 + threadIdx.x < groups_here) {
            const std::size_t lo = b0 > g * G ? b0 : g * G, hi = b1 < (g + 1) * G ? b1 : (g + 1) * G;
            const std::size_t here = hi - lo;
            const std::size_t size = m - g * G < G ? m - g * G : G;
            if (atomicAdd(counters + 1 + g, static_cast<unsigned>(here)) + here == size) {
                counters[1 + g] = 0;  // every value of the group is counted: free for the next launch
                done[atomicAdd(&done_count, 1u)] = g;
            }
        }
        __syncthreads();
        const unsigned count = done_count;
        if (count > 0) __threadfence();
        for (unsigned j = 0; j < count; ++j) {
            fold_group_of<P>(r, v, m, done[j], counters, s, d_result);
            __syncthreads();  // s is free again
        }
        __syncthreads();  // every thread has read done_count before the next round clears it
    }
}

// Block values of elements [0, n) of src (global indices base + i; base is a multiple of
// det::block): v[b] for b < ceil(n / 4096), C lanes per thread (see the top of this file).
// Units of C blocks, the short last block a unit of its own in the C-lane form; CTA c takes
// the c-th of gridDim.x even shares of the units, its warps a unit each in turn. With
// counters (all 0 at launch; m at most in_launch_max<V>()), each CTA then counts the values it
// stored per group of fold_group<V> (counters[1 + g]; the CTA that completes a group sets
// it back to 0) and folds the groups it completes (fold_group_of): the whole reduction, into
// *d_result, in one launch. A share spans one or two groups, so the folds at the end spread
// over as many CTAs as there are groups.
template <precision P, class R, int C>
__global__ void __launch_bounds__(block_threads)
    fixed_blocks(R r, source_t<R> src, std::size_t n, std::size_t base,
                 det::value_t<P, typename R::accumulator_type>* __restrict__ v,
                 typename R::result_type* __restrict__ d_result, unsigned* counters) {
    using A = typename R::accumulator_type;
    using V = det::value_t<P, A>;
    constexpr unsigned per_block = 32 / C;  // threads that share a block
    const unsigned lane = threadIdx.x % 32;
    const unsigned sub = lane / per_block, c = lane % per_block;
    const std::size_t m = det::block_count(n), full = n / det::block;
    const std::size_t full_units = C == 1 ? m : (full + C - 1) / C;  // C == 1: the short block included
    const std::size_t units = full_units + (C > 1 && full < m ? 1 : 0);
    // The first block of unit u, for u <= units (units itself: one past the last block). In
    // the C-lane form the last unit of full blocks may hold fewer than C of them, and the
    // short block's unit starts at `full`.
    const auto first_block = [&](std::size_t u) -> std::size_t {
        if (C == 1) return u;
        return u <= full_units ? (u * C < full ? u * C : full) : m;
    };
    const std::size_t share = (units + gridDim.x - 1) / gridDim.x;
    const std::size_t start = static_cast<std::size_t>(blockIdx.x) * share < units ? blockIdx.x * share : units;
    const std::size_t end = start + share < units ? start + share : units;
    bool stored = false;  // whether this thread stored a value
    for (std::size_t u = start + threadIdx.x / 32; u < end; u += warps_per_cta) {
        if (C > 1 && u * C >= full) {  // the C-lane form's short block
            const auto value = short_block<P>(r, src, n, base, full);
            if (lane == 0) v[full] = value;
            stored = stored || lane == 0;
            continue;
        }
        const std::size_t b = u * C + sub;
        const bool live = C == 1 || b < full;
        const auto value = C == 1 && b == full ? short_block<P>(r, src, n, base, b)
                                               : full_block<P, R, C>(r, src, base, b, c, live);
        if (c == 0 && live) v[b] = value;
        stored = stored || (c == 0 && live);
    }
    if (counters != nullptr) count_and_fold<P>(r, v, m, first_block(start), first_block(end), stored, counters, d_result);
}

// The bulk form of the block pass (sm_90 and later): the blocks of fixed_blocks' one-lane
// form, the same shares (CTA c the c-th even share of the m blocks, its warp w the blocks
// start + w, start + w + 8, ...) and the same adds in the same order, but each warp streams
// its full blocks through shared memory: chunks of bulk_rows<R> rows (32 elements of each
// array a row), bulk_depth of them per warp in flight by bulk copies (bulk_copy.cuh), and
// lane j adds element j of each row of a chunk in turn. Kernel studies on an H200 (the
// deterministic float sum, host clock, against the fast sum): 0.95-0.98 of it at 2^25-2^28
// where fixed_blocks ran at 0.91-0.95, the same or better at 2^20-2^24 and for doubles and
// dot; the compensated sums gained nothing, and warps taking blocks grid-stride lost 20-50%.
inline constexpr int bulk_depth = 2;
inline constexpr std::size_t bulk_chunk_bytes = std::size_t{8} << 10;

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
inline constexpr std::size_t bulk_rows = std::min(det::block / 32, bulk_chunk_bytes / (32 * bulk_arrays<source_t<R>>::bytes));
template <class R>
inline constexpr std::size_t bulk_stage_bytes = bulk_rows<R> * 32 * bulk_arrays<source_t<R>>::bytes;
// Whether R's source streams in such chunks: element sizes of powers of two, whole chunks per block.
template <class R>
inline constexpr bool bulk_shape_v = bulk_arrays<source_t<R>>::sizes_ok && bulk_rows<R> > 0 &&
                                     (det::block / 32) % bulk_rows<R> == 0;
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

template <precision P, class R>
__global__ void __launch_bounds__(block_threads)
    fixed_blocks_bulk(R r, source_t<R> src, std::size_t n, std::size_t base,
                      det::value_t<P, typename R::accumulator_type>* __restrict__ v,
                      typename R::result_type* __restrict__ d_result, unsigned* counters) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    using A = typename R::accumulator_type;
    using V = det::value_t<P, A>;
    constexpr std::size_t rows = bulk_rows<R>, chunks = det::block / 32 / rows, stage_bytes = bulk_stage_bytes<R>;
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

    const std::size_t m = det::block_count(n), full = n / det::block;
    const std::size_t share = (m + gridDim.x - 1) / gridDim.x;
    const std::size_t start = static_cast<std::size_t>(blockIdx.x) * share < m ? blockIdx.x * share : m;
    const std::size_t end = start + share < m ? start + share : m;
    const std::size_t mine = start + warp, end_full = end < full ? end : full;
    // Chunk j of this warp: chunk j % chunks of block mine + (j / chunks) * warps_per_cta.
    const std::size_t total = mine < end_full ? (end_full - mine + warps_per_cta - 1) / warps_per_cta * chunks : 0;
    const auto block_of = [&](std::size_t j) { return mine + j / chunks * warps_per_cta; };
    const auto fetch = [&](std::size_t j) {
        if (lane == 0 && j < total)
            bulk_fetch<R>(ring + j % bulk_depth * stage_bytes, src, block_of(j) * det::block + j % chunks * rows * 32,
                          bar + j % bulk_depth);
    };
    for (std::size_t j = 0; j < bulk_depth; ++j) fetch(j);
    bool stored = false;
    V acc = det::zero<P, A>(R::identity());
    for (std::size_t j = 0; j < total; ++j) {
        const std::size_t b = block_of(j), c = j % chunks;
        if (c == 0) acc = det::zero<P, A>(R::identity());
        bulk::barrier_wait(bar + j % bulk_depth, static_cast<unsigned>(j / bulk_depth % 2));
        const unsigned char* stage = ring + j % bulk_depth * stage_bytes;
        const std::size_t first = b * det::block + c * rows * 32;
        for (std::size_t k = 0; k < rows; k += U) {
            typename R::value_type x[U];
#pragma unroll
            for (int u = 0; u < U; ++u) x[u] = bulk_value<R>(stage, k + u, lane);
#pragma unroll
            for (int u = 0; u < U; ++u) det::add<P, A>(acc, r.lift(x[u], base + first + (k + u) * 32 + lane));
        }
        __syncwarp();  // every lane has read the stage before it is fetched into again
        fetch(j + bulk_depth);
        if (c == chunks - 1) {
            acc = lane_tree<P, A>(acc);
            if (lane == 0) v[b] = acc;
            stored = stored || lane == 0;
        }
    }
    // The short last block, from global memory, by the warp whose turn it is.
    if (full < m && full >= mine && full < end && (full - mine) % warps_per_cta == 0) {
        const V value = short_block<P>(r, src, n, base, full);
        if (lane == 0) v[full] = value;
        stored = stored || lane == 0;
    }
    if (counters != nullptr) count_and_fold<P>(r, v, m, start, end, stored, counters, d_result);
#else
    __trap();  // launched only where bulk_wave found a kernel compiled for sm_90 or later
#endif
}

// CTAs of `kernel` (an instance of fixed_blocks_bulk, with `shared` bytes of dynamic shared
// memory) in one full wave on the current device, after opting the kernel into that much
// shared memory; 0 where it cannot run there (no sm_90 code for the device, or not enough
// shared memory). The opt-in belongs to the kernel as one .cu file registered it: nvcc gives
// every file that instantiates a template kernel a host stub of its own, so the answer is kept
// per stub address and device, and the caller passes the stub it launches.
inline int bulk_wave(const void* kernel, std::size_t shared) {
    struct known {
        const void* kernel;
        int device, blocks;
    };
    static std::mutex lock;
    static std::vector<known> seen;
    const int device = current_device();
    const std::lock_guard<std::mutex> hold(lock);
    for (const known& k : seen)
        if (k.kernel == kernel && k.device == device) return k.blocks;
    int blocks = 0;
    const bool clean = cudaPeekAtLastError() == cudaSuccess;
    cudaFuncAttributes attr{};
    int sms = 0, per_sm = 0;
    if (cudaFuncGetAttributes(&attr, kernel) == cudaSuccess && attr.ptxVersion >= 90 &&
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)) ==
            cudaSuccess &&
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) == cudaSuccess &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block_threads, shared) == cudaSuccess)
        blocks = sms * per_sm;
    else if (clean)
        (void)cudaGetLastError();  // a failed query's own error; an error the application left stays
    seen.push_back({kernel, device, blocks});
    return blocks;
}

// Values of A that the part form of fixed_blocks_staged holds in shared memory at once:
// 16 KiB, half a block of doubles, so that eight CTAs fit an SM where the whole block's
// 32 KiB fit seven (on an H200 a wave of 1056 against 924: 2^22 doubles are 1024 blocks).
template <class A>
inline constexpr std::size_t staged_part = std::min(det::block, (std::size_t{16} << 10) / sizeof(A));

// The block values of few blocks (m at most one wave of this kernel's CTAs), one CTA per
// block, then the tree in the last CTA to finish (done, 0 at launch): the whole reduction of
// src[0, n) into *d_result in one launch. The CTA's 256 threads load S of the block's lifted
// values into shared memory at once (S: the whole block, or staged_part<A>), then warp 0
// adds them in the lanes' order (lane j adds value j + 32k for k = 0, 1, ...), and so on to
// the end of the block: the adds of fixed_blocks in the same order, so the same bits. One
// trip to memory per S values where fixed_blocks' warp makes several, which is what small
// inputs wait for.
template <precision P, class R, std::size_t S>
__global__ void __launch_bounds__(block_threads)
    fixed_blocks_staged(R r, source_t<R> src, std::size_t n, det::value_t<P, typename R::accumulator_type>* __restrict__ v,
                        typename R::result_type* __restrict__ d_result, unsigned* done) {
    using A = typename R::accumulator_type;
    using V = det::value_t<P, A>;
    // Shared-memory reads per lane before its adds; 8 in the part form keeps it to 32
    // registers, which eight CTAs an SM need.
    constexpr int in_flight = S == det::block ? loads_in_flight : 8;
    static_assert(det::block % S == 0 && S % (32 * in_flight) == 0 && S % block_threads == 0);
    constexpr std::size_t stage_bytes = std::max(S * sizeof(A), fold_group<V> * sizeof(V));
    __shared__ alignas(16) unsigned char raw[stage_bytes];  // the staged values, then the tree
    A* stage = reinterpret_cast<A*>(raw);
    const std::size_t first = static_cast<std::size_t>(blockIdx.x) * det::block;
    const std::size_t count = n - first < det::block ? n - first : det::block;
    V acc = det::zero<P, A>(R::identity());
    for (std::size_t part = 0; part < count; part += S) {  // the same trips for every thread
        const std::size_t here = count - part < S ? count - part : S;
#pragma unroll
        for (std::size_t u = 0; u < S / block_threads; ++u) {
            const std::size_t i = threadIdx.x + u * block_threads;
            if (i < here) stage[i] = r.lift(src[first + part + i], first + part + i);
        }
        __syncthreads();
        if (threadIdx.x < 32) {
            if (here == S) {
                for (std::size_t k = 0; k < S; k += 32 * in_flight) {
                    A x[in_flight];
#pragma unroll
                    for (int u = 0; u < in_flight; ++u) x[u] = stage[k + threadIdx.x + 32 * static_cast<std::size_t>(u)];
#pragma unroll
                    for (int u = 0; u < in_flight; ++u) det::add<P, A>(acc, x[u]);
                }
            } else {
                for (std::size_t i = threadIdx.x; i < here; i += 32) det::add<P, A>(acc, stage[i]);
            }
        }
        __syncthreads();  // warp 0 has read the stage before the next part overwrites it
    }
    if (threadIdx.x < 32) {
        acc = lane_tree<P, A>(acc);
        // One block: the tree of its one value is that value, finished here.
        if (threadIdx.x == 0 && gridDim.x == 1) store_whole(d_result, r.finish(det::result<P, A>(acc)));
        else if (threadIdx.x == 0) v[blockIdx.x] = acc;
    }
    if (gridDim.x == 1 || !last_block_done(done)) return;
    V* tree = reinterpret_cast<V*>(raw);
    fold_in_shared<P, A>(tree, [&](std::size_t i) { return v + i; }, det::block_count(n));
    if (threadIdx.x == 0) store_whole(d_result, r.finish(det::result<P, A>(tree[0])));
}

// Folds each aligned group of tree_group values of in[0, m) into out[group]; with a single
// group (m <= tree_group<V>) writes finish(result(sum)) to *d_result instead.
template <precision P, class R>
__global__ void __launch_bounds__(tree_threads)
    fixed_tree(R r, const det::value_t<P, typename R::accumulator_type>* __restrict__ in, std::size_t m,
               det::value_t<P, typename R::accumulator_type>* __restrict__ out,
               typename R::result_type* __restrict__ d_result) {
    using A = typename R::accumulator_type;
    using V = det::value_t<P, A>;
    constexpr std::size_t G = tree_group<V>;
    __shared__ V s[G];
    const std::size_t first = static_cast<std::size_t>(blockIdx.x) * G;
    const std::size_t count = m - first < G ? m - first : G;
    for (std::size_t i = threadIdx.x; i < count; i += tree_threads) s[i] = in[first + i];
    tree_in_shared<P, A, tree_threads, G>(s, count);
    if (threadIdx.x == 0) {
        if (d_result != nullptr) store_whole(d_result, r.finish(det::result<P, A>(s[0])));
        else out[blockIdx.x] = s[0];
    }
}

// Blocks of fixed_blocks<P, R, C> in one full wave on the current device (as many per SM as fit).
template <precision P, class R, int C>
int wave() {
    static wave_cache cache{};
    return one_wave(cache, fixed_blocks<P, R, C>, block_threads, std::numeric_limits<int>::max());
}

// Launches fixed_blocks_staged<P, R, S> over src[0, n) (m blocks) if they fit one full wave
// of its CTAs on the current device; returns whether it did.
template <precision P, class R, std::size_t S>
bool launch_staged(const R& r, source_t<R> src, std::size_t n, std::size_t m,
                   det::value_t<P, typename R::accumulator_type>* values, typename R::result_type* d_result,
                   unsigned* done, cudaStream_t stream) {
    static wave_cache cache{};
    if (m > static_cast<std::size_t>(
                one_wave(cache, fixed_blocks_staged<P, R, S>, block_threads, std::numeric_limits<int>::max())))
        return false;
    launch("fixed_blocks_staged launch", fixed_blocks_staged<P, R, S>, static_cast<unsigned>(m), block_threads, stream,
           r, src, n, values, d_result, done);
    return true;
}

// The form of the block pass: fixed_blocks' one-lane or vector form, or fixed_blocks_bulk.
// choose lets the input decide (lanes_for, bulk_ctas); the others force one, for tests,
// where it can run (else the one-lane form). Every form gives the same values.
enum class block_pass { choose, one_lane, vector, bulk };

// Which form of fixed_blocks reads src[0, n): the C-lane vector form (C = vector_lanes<R>)
// when every array is aligned to its vectors and there is at least a unit of C blocks for
// every warp of a wave (with fewer, the one-lane form keeps more loads in flight: on an
// H200, 2^24 floats took 28 us in the vector form, 25 us in the one-lane form); else 1.
template <precision P, class R>
int lanes_for(source_t<R> src, std::size_t n, block_pass form) {
    constexpr int C = vector_lanes<R>();
    if (C == 1 || form == block_pass::one_lane || !runs_aligned<C>(src)) return 1;
    if (form == block_pass::vector) return C;
    const std::size_t units = n / det::block / C;
    return units >= static_cast<std::size_t>(wave<P, R, C>()) * warps_per_cta ? C : 1;
}

// CTAs of a fixed_blocks_bulk wave over src (bulk_wave), 0 where it does not read src. It
// reads it for the deterministic sums (the compensated ones ran no faster in it, so it is
// not compiled for them), chosen or asked for, where R's arrays stream in its chunks, each
// is 16-byte aligned (what a bulk copy needs), and the device runs it.
template <precision P, class R>
inline constexpr bool bulk_compiled_v = P == precision::deterministic && bulk_shape_v<R>;
template <precision P, class R>
int bulk_ctas(source_t<R> src, block_pass form, const void* kernel) {
    if constexpr (!bulk_compiled_v<P, R>) {
        return 0;
    } else {
        if (form != block_pass::bulk && form != block_pass::choose) return 0;
        const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
        if constexpr (std::is_pointer_v<source_t<R>>) {
            if (!aligned(src)) return 0;
        } else {
            if (!aligned(src.first) || !aligned(src.second)) return 0;
        }
        return bulk_wave(kernel, bulk_shared_bytes<R>);
    }
}

// CTAs of fixed_blocks<P, R, C> for m block values: `grid` when positive, else a unit for
// every warp, one wave at most. A unit is a long trip for one warp (a block, 16 KiB, or C of
// them), and a CTA's warps take its share of units in turn, so when a wave's shares leave a
// last round to fewer than half of the warps, that round runs with too few loads in flight
// to keep the memory busy; then as few CTAs as give every warp the same number of units.
// On an H200, 2^26 floats (16384 units) on a wave of 660 CTAs gave each CTA 25 units, one
// warp in eight a fourth round alone; 512 CTAs of 32 took the deterministic sum's kernel
// from 73.6 to 70.3 us (2^28 floats: 263.9 to 253.4 us). On a wave of 792 CTAs (21 units
// each, five warps in eight taking a third round) the whole wave was faster than 683 CTAs
// of 24 (the compensated sum of 2^26 floats: 81.5-83.9 against 85.1-85.6 us, host clock).
// The values do not depend on the grid.
template <precision P, class R, int C>
unsigned blocks_grid(std::size_t m, int grid) {
    if (grid > 0) return static_cast<unsigned>(grid);
    const std::size_t units = (m + C - 1) / C;
    const std::size_t wave_ctas = static_cast<std::size_t>(wave<P, R, C>());
    if (units <= wave_ctas * warps_per_cta) return static_cast<unsigned>((units + warps_per_cta - 1) / warps_per_cta);
    const std::size_t share = (units + wave_ctas - 1) / wave_ctas;
    const std::size_t last = share % warps_per_cta;  // warps of a CTA with a round more than the rest
    if (last != 0 && last < warps_per_cta / 2) {
        const std::size_t per_cta = (share + warps_per_cta - 1) / warps_per_cta * warps_per_cta;
        return static_cast<unsigned>((units + per_cta - 1) / per_cta);
    }
    return static_cast<unsigned>(wave_ctas);
}

// Launches fixed_blocks over src[0, n) in the form lanes_for picks (counters: see
// fixed_blocks; nullptr for the block values alone).
template <precision P, class R>
void launch_blocks(const R& r, source_t<R> src, std::size_t n, std::size_t base,
                   det::value_t<P, typename R::accumulator_type>* v, typename R::result_type* d_result,
                   unsigned* counters, cudaStream_t stream, int grid, block_pass form) {
    constexpr int C = vector_lanes<R>();
    const std::size_t m = det::block_count(n);
    if constexpr (bulk_compiled_v<P, R>) {
        const auto kernel = fixed_blocks_bulk<P, R>;  // this file's stub: bulk_wave opts it in
        const auto wave = static_cast<std::size_t>(bulk_ctas<P, R>(src, form, reinterpret_cast<const void*>(kernel)));
        if (wave > 0) {
            // A CTA per SM (its warps' stages fill most of the shared memory), a share of the blocks each.
            const unsigned ctas = grid > 0 ? static_cast<unsigned>(grid) : static_cast<unsigned>(m < wave ? m : wave);
            launch_shared("fixed_blocks_bulk launch", kernel, ctas, block_threads, bulk_shared_bytes<R>,
                          stream, r, src, n, base, v, d_result, counters);
            return;
        }
    }
    if constexpr (C > 1) {
        if (lanes_for<P, R>(src, n, form) == C) {
            launch("fixed_blocks launch", fixed_blocks<P, R, C>, blocks_grid<P, R, C>(m, grid), block_threads, stream, r,
                   src, n, base, v, d_result, counters);
            return;
        }
    }
    launch("fixed_blocks launch", fixed_blocks<P, R, 1>, blocks_grid<P, R, 1>(m, grid), block_threads, stream, r, src,
           n, base, v, d_result, counters);
}

// Enqueues the block values of src[0, n) into v (global indices base + i). grid: blocks of
// the launch, 0 for one wave (blocks_grid).
template <precision P, class R>
void enqueue_blocks(const R& r, source_t<R> src, std::size_t n, std::size_t base,
                    det::value_t<P, typename R::accumulator_type>* v, cudaStream_t stream, int grid = 0) {
    if (det::block_count(n) == 0) return;
    launch_blocks<P>(r, src, n, base, v, static_cast<typename R::result_type*>(nullptr), nullptr, stream, grid,
                     block_pass::choose);
}

// Block values whose tree fixed_blocks folds in the same launch: fold_group<V> groups of
// fold_group<V> values at most (2^32 elements for compensated pairs, more for the others),
// and a counter for each group besides the one that counts the groups in the workspace's
// counter bytes; beyond, the tree takes launches of its own.
template <class V>
constexpr std::size_t in_launch_max() {
    constexpr std::size_t counters = counter_bytes / sizeof(unsigned) - 1;
    return fold_group<V> * (fold_group<V> < counters ? fold_group<V> : counters);
}

// Values the tree needs besides v[0, m): the group values of the first level (the later
// levels reuse v's room, which is no longer read).
template <class V>
std::size_t tree_scratch(std::size_t m) {
    return m <= tree_group<V> ? 0 : (m + tree_group<V> - 1) / tree_group<V>;
}

// Enqueues the block tree of v[0, m) (m >= 1) and writes finish(result(sum)) to *d_result.
// scratch holds tree_scratch(m) values; v is overwritten.
template <precision P, class R>
void enqueue_tree(const R& r, det::value_t<P, typename R::accumulator_type>* v, std::size_t m,
                  det::value_t<P, typename R::accumulator_type>* scratch, typename R::result_type* d_result,
                  cudaStream_t stream) {
    using V = det::value_t<P, typename R::accumulator_type>;
    V* in = v;
    V* out = scratch;
    while (m > tree_group<V>) {
        const std::size_t groups = (m + tree_group<V> - 1) / tree_group<V>;
        launch("fixed_tree launch", fixed_tree<P, R>, static_cast<unsigned>(groups), tree_threads, stream, r,
               static_cast<const V*>(in), m, out, static_cast<typename R::result_type*>(nullptr));
        m = groups;
        V* t = in;  // the next level reads out and writes over the old input
        in = out;
        out = t;
    }
    launch("fixed_tree (final) launch", fixed_tree<P, R>, 1, tree_threads, stream, r, static_cast<const V*>(in), m, out,
           d_result);
}

// Folds each aligned group of tree_group<V> values of v[0, m) into out[g], g < ceil(m /
// tree_group<V>): one level of enqueue_tree. A group's value is the block tree of that group
// alone (see the top of this file), so a GPU that holds whole groups of a larger input (its
// part of a multi-GPU reduction, multi_gpu.cuh) hands on those values and the tree above
// them runs elsewhere with the same bits. v must start at a group boundary of the whole tree.
template <precision P, class R>
void enqueue_groups(const R& r, const det::value_t<P, typename R::accumulator_type>* v, std::size_t m,
                    det::value_t<P, typename R::accumulator_type>* out, cudaStream_t stream) {
    using V = det::value_t<P, typename R::accumulator_type>;
    if (m == 0) return;
    const std::size_t groups = (m + tree_group<V> - 1) / tree_group<V>;
    launch("fixed_tree (groups) launch", fixed_tree<P, R>, static_cast<unsigned>(groups), tree_threads, stream, r, v, m,
           out, static_cast<typename R::result_type*>(nullptr));
}

// The whole fixed-order reduction of device-accessible src[0, n) (n >= 1) into *d_result
// (any memory the GPU can write): fixed_blocks_staged while the blocks fit one wave of its
// CTAs (and their values fold_group<V>), else the block pass (launch_blocks) with the block
// tree in the same launch, or for more than in_launch_max<V>() blocks the block values and
// then the tree's launches. grid > 0: the block pass with that many CTAs; form: its form
// (block_pass). Neither changes the values.
template <precision P, class R>
void enqueue_reduce(const R& r, source_t<R> src, std::size_t n, typename R::result_type* d_result,
                    cudaStream_t stream, int grid = 0, block_pass form = block_pass::choose) {
    using V = det::value_t<P, typename R::accumulator_type>;
    const std::size_t m = det::block_count(n);
    const bool one_launch = m <= in_launch_max<V>();
    const std::size_t bytes = (m + (one_launch ? 0 : tree_scratch<V>(m))) * sizeof(V);
    const counted_workspace ws = counted_workspace_for(bytes, stream, nullptr);
    V* values = static_cast<V*>(ws.values);
    if (!one_launch) {
        launch_blocks<P>(r, src, n, 0, values, static_cast<typename R::result_type*>(nullptr), nullptr, stream, grid,
                         form);
        enqueue_tree<P>(r, values, m, values + m, d_result, stream);
        return;
    }
    if (grid <= 0 && form == block_pass::choose && m <= fold_group<V>) {
        // The whole block staged at once while its CTAs fit a wave; past that, for doubles,
        // the part form, whose CTAs fit a larger wave.
        constexpr std::size_t part = staged_part<typename R::accumulator_type>;
        if (launch_staged<P, R, det::block>(r, src, n, m, values, d_result, ws.done, stream)) return;
        if constexpr (part < det::block)
            if (launch_staged<P, R, part>(r, src, n, m, values, d_result, ws.done, stream)) return;
    }
    launch_blocks<P>(r, src, n, 0, values, d_result, ws.done, stream, grid, form);
}

} // namespace preduce::cuda::detail::fixed
