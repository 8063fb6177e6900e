#pragma once
// The fixed order's block tree on the GPU (preduce/detail/algorithm/fixed_order/order.hpp, step 4) and
// the lane tree (step 3): the shapes of the fixed-order kernels, the lanes' shuffle tree, the
// tree of up to a group of values in one CTA, the in-launch tree that the block passes end
// with (count_and_fold), and fixed_tree, the tree in launches of its own.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstring>

#include "preduce/cuda/grid/kernels.cuh"
#include "preduce/cuda/tuning.hpp"
#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/precision.hpp"

namespace preduce::cuda::detail::fixed {

namespace fixed_order = ::preduce::detail::fixed_order;

// The fixed-order kernels' shapes, from the compile-time tuning (tuning.hpp).
inline constexpr int block_threads = tuning::fixed_block_threads;  // fixed_blocks, fixed_blocks_bulk
inline constexpr int warps_per_cta = block_threads / 32;
inline constexpr int loads_in_flight = tuning::fixed_loads_in_flight;  // per lane, issued before the first add
inline constexpr int tree_threads = tuning::fixed_tree_threads;
// Values one CTA of fixed_tree folds in its shared memory (8192 floats, 2048 compensated
// double pairs: one tree launch covers up to 2^25 float elements).
template <class V>
inline constexpr std::size_t tree_group = tuning::fixed_tree_group_bytes / sizeof(V);
// Values one CTA of a block pass folds in its shared memory (4096 floats, 2048 doubles, 1024
// compensated pairs): a group of the in-launch block tree that every block pass ends with
// (count_and_fold). A tree of up to that many blocks is one fold.
template <class V>
inline constexpr std::size_t fold_group = tuning::fixed_fold_group_bytes / sizeof(V);
static_assert(fixed_order::lanes == 32 && fixed_order::block % (32 * loads_in_flight) == 0);
static_assert(block_threads % 32 == 0 && (warps_per_cta & (warps_per_cta - 1)) == 0 && tree_threads % 32 == 0 &&
              tree_threads <= 1024);

template <precision P, class A>
__device__ __forceinline__ fixed_order::value_t<P, A> shfl_down(const fixed_order::value_t<P, A>& v, unsigned w) {
    if constexpr (P == precision::compensated)
        return {__shfl_down_sync(0xffffffffu, v.s, w), __shfl_down_sync(0xffffffffu, v.c, w)};
    else
        return __shfl_down_sync(0xffffffffu, v, w);
}

// The lanes' tree of one block, in the warp: w = 16, 8, ..., 1, each lane's own value on
// the left. Lane 0 ends with the block value.
template <precision P, class A>
__device__ __forceinline__ fixed_order::value_t<P, A> lane_tree(fixed_order::value_t<P, A> acc) {
#pragma unroll
    for (unsigned w = 16; w > 0; w /= 2) {
        const fixed_order::value_t<P, A> other = shfl_down<P, A>(acc, w);
        acc = fixed_order::merge<P, A>(acc, other);
    }
    return acc;
}

// The subtree of the chunk s[first, first + c) (c values in 16 bytes, aligned): its merges
// inside the chunk, of the values below count.
template <precision P, class A, std::size_t c>
__device__ __forceinline__ fixed_order::value_t<P, A> chunk_tree(const fixed_order::value_t<P, A>* s, std::size_t first,
                                                        std::size_t count) {
    using V = fixed_order::value_t<P, A>;
    V x[c];
    if (first + c <= count) {  // one 16-byte read
        const uint4 w = *reinterpret_cast<const uint4*>(s + first);
        memcpy(x, &w, sizeof(x));
    } else {
#pragma unroll
        for (std::size_t u = 0; u < c; ++u) x[u] = first + u < count ? s[first + u] : V{};
    }
#pragma unroll
    for (std::size_t w = 1; w < c; w *= 2)
#pragma unroll
        for (std::size_t u = 0; u < c; u += 2 * w)
            if (first + u + w < count) x[u] = fixed_order::merge<P, A>(x[u], x[u + w]);
    return x[0];
}

// The block tree's levels above nodes held one per lane, the node of lane l covering values
// [(base + l) * span, ...): adjacent nodes merge by shuffles, the left one on the left (not
// lane_tree's order, which is the lanes' tree of a block); lane 0 ends with their subtree.
// The levels whose right node for lane 0 starts at or past count merge nothing into lane 0
// (nor do the levels above them), so the warp stops there: a fold of few values takes only
// the levels it has.
template <precision P, class A>
__device__ __forceinline__ fixed_order::value_t<P, A> block_tree_over_lanes(fixed_order::value_t<P, A> acc, std::size_t base,
                                                                   std::size_t span, std::size_t count) {
    const unsigned lane = threadIdx.x % 32;
#pragma unroll
    for (unsigned w = 1; w < 32; w *= 2) {
        if ((base + w) * span >= count) break;  // the same for the whole warp
        const fixed_order::value_t<P, A> right = shfl_down<P, A>(acc, w);
        if (lane % (2 * w) == 0 && (base + lane + w) * span < count) acc = fixed_order::merge<P, A>(acc, right);
    }
    return acc;
}

// The subtree of the `chunks` chunks from s[first] (a power of two of them, each c values
// in 16 bytes, aligned): the tree of chunk_tree's values, of the values below count.
template <precision P, class A, std::size_t c, std::size_t chunks>
__device__ __forceinline__ fixed_order::value_t<P, A> chunks_tree(const fixed_order::value_t<P, A>* s, std::size_t first,
                                                         std::size_t count) {
    if constexpr (chunks == 1) {
        return chunk_tree<P, A, c>(s, first, count);
    } else {
        constexpr std::size_t half = chunks / 2 * c;
        fixed_order::value_t<P, A> left = chunks_tree<P, A, c, chunks / 2>(s, first, count);
        const fixed_order::value_t<P, A> right = chunks_tree<P, A, c, chunks / 2>(s, first + half, count);
        if (first + half < count) left = fixed_order::merge<P, A>(left, right);
        return left;
    }
}

// fixed_order::block_tree of s[0, count) in shared memory (count <= G, s aligned to 16 bytes), by all
// Threads threads of the CTA; thread 0 returns the tree's value. The tree's nodes are
// aligned subtrees (node i at level L covers [i*2^L, (i+1)*2^L) of [0, count); a node whose
// right half is empty is its left half), so the work splits along them without changing a
// single addition: thread t folds the subtree of its run s[t*q, (t+1)*q) (q = G / Threads)
// as its two halves one after the other, each from one to four 16-byte chunks (few
// registers: the block passes that end with this tree keep their occupancy), the lanes of a
// warp merge the runs by shuffles, and warp 0 merges the warps'. Two barriers in all, where
// a level at a time through shared memory took two per level; one where every value is in
// warp 0's runs.
template <precision P, class A, int Threads, std::size_t G>
__device__ __forceinline__ fixed_order::value_t<P, A> tree_in_shared(const fixed_order::value_t<P, A>* s, std::size_t count) {
    using V = fixed_order::value_t<P, A>;
    constexpr std::size_t q = G / Threads;     // a thread's run
    constexpr std::size_t c = 16 / sizeof(V);  // values of a chunk
    constexpr std::size_t chunks = q / 2 / c;  // chunks of a half run
    constexpr int warps = Threads / 32;
    static_assert(16 % sizeof(V) == 0 && (G & (G - 1)) == 0 && q * Threads == G && chunks >= 1 &&
                      chunks * 2 * c == q && (chunks & (chunks - 1)) == 0,
                  "runs of whole chunk pairs, aligned subtrees: powers of two");
    static_assert(chunks <= 4, "more chunks than four a half take more registers than the block passes have");
    static_assert(Threads % 32 == 0 && warps <= 32 && (warps & (warps - 1)) == 0);
    __shared__ V warp_value[warps];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const std::size_t run = static_cast<std::size_t>(threadIdx.x) * q;
    __syncthreads();  // s is written
    V acc{};
#pragma unroll 1
    for (std::size_t k = 0; k < 2; ++k) {
        const std::size_t first = run + k * (q / 2);
        if (first >= count) break;
        const V half = chunks_tree<P, A, c, chunks>(s, first, count);
        acc = k == 0 ? half : fixed_order::merge<P, A>(acc, half);  // the run's two halves
    }
    acc = block_tree_over_lanes<P, A>(acc, static_cast<std::size_t>(warp) * 32, q, count);
    if constexpr (warps > 1) {
        if (count <= 32 * q) return acc;  // warp 0 held them all: lane 0 has the tree
        if (lane == 0) warp_value[warp] = acc;
        __syncthreads();
        if (warp == 0) acc = block_tree_over_lanes<P, A>(lane < warps ? warp_value[lane] : V{}, 0, 32 * q, count);
    }
    return acc;
}

// The block tree of the count <= fold_group values *at(i), which other CTAs of this launch
// stored (read past L1), folded in the CTA's shared memory s by every thread of the CTA;
// thread 0 returns it.
template <precision P, class A, class At>
__device__ __forceinline__ fixed_order::value_t<P, A> fold_in_shared(fixed_order::value_t<P, A>* s, At at, std::size_t count) {
    for (std::size_t i = threadIdx.x; i < count; i += block_threads) s[i] = load_from_l2(at(i));
    return tree_in_shared<P, A, block_threads, fold_group<fixed_order::value_t<P, A>>>(s, count);
}

// fold_in_shared of the contiguous values p[0, count) (count <= fold_group, p 16-byte
// aligned) by a CTA of Threads threads: the group's 16 KiB in 16-byte loads, a thread's
// 1024 / Threads of them all in flight before its first store to s, one trip to L2 where
// the scalar loop makes up to that many. The loads take 16 registers at 256 threads, 32 at
// 128, so only kernels with registers to spare use it: a kernel that keeps eight CTAs of
// 256 an SM (32 registers a thread) would spill. The bulk pass (one CTA an SM) has them,
// and so does the staged kernel, whose 32 rows a lane are no longer live when it folds
// (docs/fixed-order-gpu.md).
template <precision P, class A, int Threads = block_threads>
__device__ __forceinline__ fixed_order::value_t<P, A> fold_run_in_shared(fixed_order::value_t<P, A>* s, const fixed_order::value_t<P, A>* p,
                                                                std::size_t count) {
    using V = fixed_order::value_t<P, A>;
    constexpr std::size_t c = sizeof(uint4) / sizeof(V);  // values of a load
    constexpr int loads = static_cast<int>(fold_group<V> / c / Threads);
    static_assert(sizeof(uint4) % sizeof(V) == 0 && loads * c * Threads == fold_group<V>);
    const std::size_t whole = count / c;  // loads that hold no value past count
    const uint4* from = reinterpret_cast<const uint4*>(p);
    uint4 w[loads];
#pragma unroll
    for (int k = 0; k < loads; ++k) {
        const std::size_t i = threadIdx.x + static_cast<std::size_t>(k) * Threads;
        if (i < whole) w[k] = __ldcg(from + i);
    }
#pragma unroll
    for (int k = 0; k < loads; ++k) {
        const std::size_t i = threadIdx.x + static_cast<std::size_t>(k) * Threads;
        if (i < whole) reinterpret_cast<uint4*>(s)[i] = w[k];
    }
    for (std::size_t i = whole * c + threadIdx.x; i < count; i += Threads) s[i] = load_from_l2(p + i);
    return tree_in_shared<P, A, Threads, fold_group<V>>(s, count);
}

// Runs a thread folds in fold_few_from_l2 (tuning.hpp): an aligned subtree of the block tree.
inline constexpr std::size_t few_run = tuning::fixed_few_run;
static_assert((few_run & (few_run - 1)) == 0, "a run is an aligned subtree: a power of two");

// The block tree of the count <= few_run * Threads values p[0, count) (p 16-byte aligned),
// which other CTAs of this launch stored, by a CTA of Threads threads straight from L2:
// thread t reads its run p[4t, 4t + 4) in 16-byte loads, all in flight at once, and folds it
// as the tree does (chunks_tree's merges, in registers), the lanes of a warp merge the runs
// by shuffles and warp 0 merges the warps'; thread 0 returns the tree's value. The same
// nodes merged in the same pairs as tree_in_shared, with every thread holding a run of four
// where tree_in_shared gives each thread a run of fold_group / Threads (32 floats at 128
// threads: eight threads at work for 256 values). The in-launch trees' last rounds use it
// where their nodes are few: the staged kernel's block values up to 512, the bulk pass's
// shares (one a CTA). Through shared memory, with few threads at work, that last fold took
// the staged kernel's last CTA longer than the fast sum's last block takes for as many
// partials (docs/fixed-order-gpu.md).
template <precision P, class A, int Threads>
__device__ __forceinline__ fixed_order::value_t<P, A> fold_few_from_l2(const fixed_order::value_t<P, A>* p, std::size_t count) {
    using V = fixed_order::value_t<P, A>;
    constexpr std::size_t q = few_run;
    constexpr int warps = Threads / 32;
    constexpr std::size_t per_load = sizeof(uint4) / sizeof(V);  // values of a 16-byte load
    constexpr std::size_t loads = q * sizeof(V) / sizeof(uint4);
    static_assert(sizeof(uint4) % sizeof(V) == 0 && loads * per_load == q && Threads % 32 == 0 && warps <= 32 &&
                  (warps & (warps - 1)) == 0);
    __shared__ V warp_value[warps];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const std::size_t first = static_cast<std::size_t>(threadIdx.x) * q;
    V x[q];
    if (first + q <= count) {  // the whole run
        uint4 w[loads];
        const uint4* from = reinterpret_cast<const uint4*>(p + first);
#pragma unroll
        for (std::size_t k = 0; k < loads; ++k) w[k] = __ldcg(from + k);
        memcpy(x, w, sizeof(x));
    } else {
#pragma unroll
        for (std::size_t u = 0; u < q; ++u) x[u] = first + u < count ? load_from_l2(p + first + u) : V{};
    }
#pragma unroll
    for (std::size_t w = 1; w < q; w *= 2)
#pragma unroll
        for (std::size_t u = 0; u < q; u += 2 * w)
            if (first + u + w < count) x[u] = fixed_order::merge<P, A>(x[u], x[u + w]);
    V acc = block_tree_over_lanes<P, A>(x[0], static_cast<std::size_t>(warp) * 32, q, count);
    if constexpr (warps > 1) {
        if (count <= 32 * q) return acc;  // warp 0 held them all: lane 0 has the tree
        if (lane == 0) warp_value[warp] = acc;
        __syncthreads();
        if (warp == 0) acc = block_tree_over_lanes<P, A>(lane < warps ? warp_value[lane] : V{}, 0, 32 * q, count);
    }
    return acc;
}

// The tree of the count <= fold_group values p[0, count) (p 16-byte aligned) that other CTAs
// of this launch stored, by a CTA of Threads threads: fold_few_from_l2 where they are few
// enough, else fold_run_in_shared through s. The last round of the kernels whose last CTA
// folds one value a CTA or a block (the staged kernel, the bulk pass).
template <precision P, class A, int Threads>
__device__ __forceinline__ fixed_order::value_t<P, A> fold_last_round(fixed_order::value_t<P, A>* s, const fixed_order::value_t<P, A>* p,
                                                             std::size_t count) {
    if (count <= few_run * Threads) return fold_few_from_l2<P, A, Threads>(p, count);
    return fold_run_in_shared<P, A, Threads>(s, p, count);
}

// The last round of an in-launch tree, after a CTA folded one of the `nodes` nodes of one
// level of the block tree (aligned subtrees, whose own tree is the rest of the block tree)
// into value (thread 0's); slot is that node's place among the nodes' values. A single node is the whole tree: its finish(result(value))
// goes to *d_result. Else thread 0 stores the value at *slot and counts it at *counter
// (count_acq_rel; the last count sets it back to 0), and the CTA that counts the last node
// folds the nodes' values (fold_nodes(), their tree by the whole CTA, thread 0's the value)
// and writes the result. Every thread of the CTA calls it.
template <precision P, class R, class Fold>
__device__ __forceinline__ void hand_on(const R& r, const fixed_order::value_t<P, typename R::accumulator_type>& value,
                                        fixed_order::value_t<P, typename R::accumulator_type>* slot, std::size_t nodes,
                                        unsigned* counter, Fold fold_nodes, typename R::result_type* d_result) {
    using A = typename R::accumulator_type;
    __shared__ bool last;
    if (nodes == 1) {
        if (threadIdx.x == 0) store_whole(d_result, r.finish(fixed_order::result<P, A>(value)));
        return;
    }
    if (threadIdx.x == 0) {
        *slot = value;
        last = count_acq_rel(counter, 1u) + 1 == nodes;
        if (last) *counter = 0;
    }
    __syncthreads();  // the other nodes' values, acquired by thread 0, for every thread
    if (!last) return;
    const auto sum = fold_nodes();
    if (threadIdx.x == 0) store_whole(d_result, r.finish(fixed_order::result<P, A>(sum)));
}

// Folds group g of v[0, m) (fold_group values each, the last one possibly short) in the
// CTA's shared memory s, by every thread of the CTA, and hands its value on (hand_on: the
// group values over v[g * fold_group], counted at counters[0]). VectorLoads: read the group
// with fold_run_in_shared (v 16-byte aligned), else with fold_in_shared's scalar loop.
template <precision P, class R, bool VectorLoads>
__device__ __forceinline__ void fold_group_of(const R& r, fixed_order::value_t<P, typename R::accumulator_type>* v,
                                              std::size_t m, std::size_t g, unsigned* counters,
                                              fixed_order::value_t<P, typename R::accumulator_type>* s,
                                              typename R::result_type* d_result) {
    using A = typename R::accumulator_type;
    constexpr std::size_t G = fold_group<fixed_order::value_t<P, A>>;
    const std::size_t groups = (m + G - 1) / G;
    const std::size_t size = m - g * G < G ? m - g * G : G;
    fixed_order::value_t<P, A> value;
    if constexpr (VectorLoads) value = fold_run_in_shared<P, A>(s, v + g * G, size);
    else value = fold_in_shared<P, A>(s, [&](std::size_t i) { return v + g * G + i; }, size);
    // The group's first value is read by no one else any more: its slot takes the group's.
    hand_on<P>(r, value, v + g * G, groups, counters,
               [&] { return fold_in_shared<P, A>(s, [&](std::size_t i) { return v + i * G; }, groups); }, d_result);
}

// The in-launch block tree, after a CTA of block_threads threads stored the values of its
// blocks [b0, b1): the CTA counts them per group of fold_group<V> (counters[1 + g], with
// count_acq_rel; the CTA that completes a group sets it back to 0), one group per thread at
// a time, lists the groups it completes and folds them (fold_group_of<P, R, VectorLoads>) in
// s, fold_group<V> values of the CTA's shared memory (16-byte aligned). Every thread of the
// CTA calls it.
template <precision P, class R, bool VectorLoads = false>
__device__ __forceinline__ void count_and_fold(const R& r, fixed_order::value_t<P, typename R::accumulator_type>* v,
                                               std::size_t m, std::size_t b0, std::size_t b1, unsigned* counters,
                                               typename R::result_type* d_result,
                                               fixed_order::value_t<P, typename R::accumulator_type>* s) {
    using V = fixed_order::value_t<P, typename R::accumulator_type>;
    constexpr std::size_t G = fold_group<V>;
    __shared__ unsigned done_count;
    __shared__ std::size_t done[block_threads];
    if (b0 >= b1) return;
    const std::size_t g0 = b0 / G, groups_here = (b1 - 1) / G - g0 + 1;
    for (std::size_t k0 = 0; k0 < groups_here; k0 += block_threads) {
        if (threadIdx.x == 0) done_count = 0;
        __syncthreads();  // every store of the CTA (and the last round's folds) before it is counted
        const std::size_t g = g0 + k0 + threadIdx.x;
        if (k0 + threadIdx.x < groups_here) {
            const std::size_t lo = b0 > g * G ? b0 : g * G, hi = b1 < (g + 1) * G ? b1 : (g + 1) * G;
            const std::size_t here = hi - lo;
            const std::size_t size = m - g * G < G ? m - g * G : G;
            if (count_acq_rel(counters + 1 + g, static_cast<unsigned>(here)) + here == size) {
                counters[1 + g] = 0;  // every value of the group is counted: free for the next launch
                done[atomicAdd(&done_count, 1u)] = g;
            }
        }
        __syncthreads();  // the values of the groups completed here (their counters acquired them), for all
        const unsigned count = done_count;
        for (unsigned j = 0; j < count; ++j) {
            fold_group_of<P, R, VectorLoads>(r, v, m, done[j], counters, s, d_result);
            __syncthreads();  // s is free again
        }
        __syncthreads();  // every thread has read done_count before the next round clears it
    }
}

// Folds each aligned group of tree_group values of in[0, m) into out[group]; with a single
// group (m <= tree_group<V>) writes finish(result(sum)) to *d_result instead.
template <precision P, class R>
__global__ void __launch_bounds__(tree_threads)
    fixed_tree(R r, const fixed_order::value_t<P, typename R::accumulator_type>* __restrict__ in, std::size_t m,
               fixed_order::value_t<P, typename R::accumulator_type>* __restrict__ out,
               typename R::result_type* __restrict__ d_result) {
    using A = typename R::accumulator_type;
    using V = fixed_order::value_t<P, A>;
    constexpr std::size_t G = tree_group<V>;
    __shared__ alignas(16) V s[G];
    const std::size_t first = static_cast<std::size_t>(blockIdx.x) * G;
    const std::size_t count = m - first < G ? m - first : G;
    for (std::size_t i = threadIdx.x; i < count; i += tree_threads) s[i] = in[first + i];
    const V sum = tree_in_shared<P, A, tree_threads, G>(s, count);
    if (threadIdx.x == 0) {
        if (d_result != nullptr) store_whole(d_result, r.finish(fixed_order::result<P, A>(sum)));
        else out[blockIdx.x] = sum;
    }
}

} // namespace preduce::cuda::detail::fixed
