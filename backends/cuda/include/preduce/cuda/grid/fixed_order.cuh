#pragma once
// precision::deterministic and precision::compensated on the GPU: the fixed order of
// preduce/detail/fixed_order/order.hpp, bit for bit.
//
//  - fixed_blocks: one warp per 4096-element block, grid-stride over blocks. Lane j adds
//    lift(x[b*4096 + j + 32k]) for k = 0, 1, ... in increasing k (coalesced loads, 16 in
//    flight per lane), then the shuffle-down tree w = 16..1 (own value on the left). Lane
//    0 stores the block value v[b]. What a warp computes depends on b alone, never on
//    which warp or block of the grid runs it, so every grid gives the same v.
//  - fixed_tree: the block tree over v. Its node i at level L covers the values
//    [i*2^L, (i+1)*2^L) ∩ [0, m) (an odd last value moves to index m/2, which covers the
//    same range), so each aligned group of 2^L values is a whole subtree whose order is
//    the tree of that group alone. One CTA folds a group of tree_group<V> values in shared
//    memory; launches repeat over the group values until one is left, which is finished.
//  - When all of v fits in last_group<V> values (2^22 to 2^24 elements, by value size),
//    the last CTA of fixed_blocks to finish folds the tree itself (kernels.cuh's
//    completion counter): one launch for the whole reduction, the same tree, the same bits.
//    With no more blocks than one wave of CTAs, fixed_blocks_staged gives each block a CTA
//    that loads it whole before its warp adds: the same adds, one trip to memory.
//
// The lane, lane-tree and block-tree arithmetic is det::add / det::merge / det::result
// themselves, which add with __fadd_rn/__dadd_rn in device code: never contracted into an
// FMA with the product a lift may compute, never reassociated.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <limits>
#include <type_traits>

#include "preduce/cuda/runtime/check.hpp"
#include "preduce/cuda/grid/launch.cuh"
#include "preduce/cuda/grid/kernels.cuh"
#include "preduce/cuda/runtime/memory.hpp"
#include "preduce/detail/fixed_order/order.hpp"
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
// Values the last CTA of fixed_blocks folds in 16 KiB of shared memory, which keeps 8 CTAs
// (all 2048 threads) resident per SM.
template <class V>
inline constexpr std::size_t last_group = (std::size_t{16} << 10) / sizeof(V);
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

// In the last CTA of a counted launch (kernels.cuh's last_block_done): the block tree of
// v[0, m) (m <= last_group<V>), folded in the CTA's shared memory s, finished into *d_result.
template <precision P, class R, int Threads>
__device__ __forceinline__ void finish_tree(const R& r, const det::value_t<P, typename R::accumulator_type>* v,
                                            std::size_t m, det::value_t<P, typename R::accumulator_type>* s,
                                            typename R::result_type* d_result) {
    using A = typename R::accumulator_type;
    using V = det::value_t<P, A>;
    for (std::size_t i = threadIdx.x; i < m; i += Threads) s[i] = load_from_l2(v + i);
    tree_in_shared<P, A, Threads, last_group<V>>(s, m);
    if (threadIdx.x == 0) store_whole(d_result, r.finish(det::result<P, A>(s[0])));
}

// Block values of elements [0, n) of src (global indices base + i; base is a multiple of
// det::block): v[b] for b < ceil(n / 4096). With a completion counter `done` (0 at launch;
// m <= last_group<V>), the last CTA to finish folds the block tree of v and writes
// finish(result(sum)) to *d_result.
template <precision P, class R>
__global__ void __launch_bounds__(block_threads)
    fixed_blocks(R r, source_t<R> src, std::size_t n, std::size_t base,
                 det::value_t<P, typename R::accumulator_type>* __restrict__ v,
                 typename R::result_type* __restrict__ d_result, unsigned* done) {
    using A = typename R::accumulator_type;
    using V = det::value_t<P, A>;
    const unsigned lane = threadIdx.x % 32;
    const std::size_t m = (n + det::block - 1) / det::block;
    const std::size_t warps = static_cast<std::size_t>(gridDim.x) * warps_per_cta;
    for (std::size_t b = static_cast<std::size_t>(blockIdx.x) * warps_per_cta + threadIdx.x / 32; b < m; b += warps) {
        V acc = det::zero<P, A>(R::identity());
        const std::size_t first = b * det::block;
        if (n - first >= det::block) {
            for (std::size_t k = 0; k < det::block; k += 32 * loads_in_flight) {
                A x[loads_in_flight];
#pragma unroll
                for (int u = 0; u < loads_in_flight; ++u) {
                    const std::size_t i = first + k + lane + 32 * static_cast<std::size_t>(u);
                    x[u] = r.lift(src[i], base + i);
                }
#pragma unroll
                for (int u = 0; u < loads_in_flight; ++u) det::add<P, A>(acc, x[u]);
            }
        } else {  // the short last block: lane j skips the positions past n
            for (std::size_t i = first + lane; i < n; i += 32) det::add<P, A>(acc, r.lift(src[i], base + i));
        }
        acc = lane_tree<P, A>(acc);
        if (lane == 0) v[b] = acc;
    }
    if (done == nullptr || !last_block_done(done)) return;
    __shared__ V s[last_group<V>];
    finish_tree<P, R, block_threads>(r, v, m, s, d_result);
}

// The block values of few blocks (m at most one wave of this kernel's CTAs), one CTA per
// block, then the tree in the last CTA to finish (done, 0 at launch): the whole reduction of
// src[0, n) into *d_result in one launch. The CTA's 256 threads load the block's lifted
// values into shared memory all at once (16 each), then warp 0 adds them in the lanes'
// order: lane j adds value j + 32k for k = 0, 1, ..., the adds of fixed_blocks in the same
// order, so the same bits. One trip to memory per block where fixed_blocks' warp makes
// eight (16 loads in flight per lane), which is what small inputs wait for.
template <precision P, class R>
__global__ void __launch_bounds__(block_threads)
    fixed_blocks_staged(R r, source_t<R> src, std::size_t n, det::value_t<P, typename R::accumulator_type>* __restrict__ v,
                        typename R::result_type* __restrict__ d_result, unsigned* done) {
    using A = typename R::accumulator_type;
    using V = det::value_t<P, A>;
    constexpr std::size_t stage_bytes = det::block * sizeof(A) > last_group<V> * sizeof(V) ? det::block * sizeof(A)
                                                                                               : last_group<V> * sizeof(V);
    __shared__ alignas(16) unsigned char raw[stage_bytes];  // the block's values, then the tree
    A* stage = reinterpret_cast<A*>(raw);
    const std::size_t first = static_cast<std::size_t>(blockIdx.x) * det::block;
    const std::size_t count = n - first < det::block ? n - first : det::block;
#pragma unroll
    for (std::size_t u = 0; u < det::block / block_threads; ++u) {
        const std::size_t i = threadIdx.x + u * block_threads;
        if (i < count) stage[i] = r.lift(src[first + i], first + i);
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        V acc = det::zero<P, A>(R::identity());
        for (std::size_t i = threadIdx.x; i < count; i += 32) det::add<P, A>(acc, stage[i]);
        acc = lane_tree<P, A>(acc);
        // One block: the tree of its one value is that value, finished here.
        if (threadIdx.x == 0 && gridDim.x == 1) store_whole(d_result, r.finish(det::result<P, A>(acc)));
        else if (threadIdx.x == 0) v[blockIdx.x] = acc;
    }
    if (gridDim.x == 1 || !last_block_done(done)) return;  // its barrier also ends every read of stage
    finish_tree<P, R, block_threads>(r, v, det::block_count(n), reinterpret_cast<V*>(raw), d_result);
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

// Blocks of fixed_blocks in one full wave on the current device (as many per SM as fit).
template <precision P, class R>
int wave() {
    static wave_cache cache{};
    return one_wave(cache, fixed_blocks<P, R>, block_threads, std::numeric_limits<int>::max());
}

// CTAs of fixed_blocks_staged in one full wave on the current device.
template <precision P, class R>
int staged_wave() {
    static wave_cache cache{};
    return one_wave(cache, fixed_blocks_staged<P, R>, block_threads, std::numeric_limits<int>::max());
}

// CTAs of fixed_blocks for m block values: `grid` when positive, else enough warps for
// the values, at most one wave. The values do not depend on it.
template <precision P, class R>
unsigned blocks_grid(std::size_t m, int grid) {
    if (grid > 0) return static_cast<unsigned>(grid);
    const std::size_t needed = (m + warps_per_cta - 1) / warps_per_cta;
    return static_cast<unsigned>(std::min<std::size_t>(needed, static_cast<std::size_t>(wave<P, R>())));
}

// Enqueues the block values of src[0, n) into v (global indices base + i). grid: blocks of
// the launch, 0 for one wave (blocks_grid).
template <precision P, class R>
void enqueue_blocks(const R& r, source_t<R> src, std::size_t n, std::size_t base,
                    det::value_t<P, typename R::accumulator_type>* v, cudaStream_t stream, int grid = 0) {
    const std::size_t m = det::block_count(n);
    if (m == 0) return;
    launch("fixed_blocks launch", fixed_blocks<P, R>, blocks_grid<P, R>(m, grid), block_threads, stream, r, src, n, base, v,
           static_cast<typename R::result_type*>(nullptr), static_cast<unsigned*>(nullptr));
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
// (any memory the GPU can write): one launch while the block values fit last_group<V>
// (fixed_blocks_staged while they fit one wave of CTAs), else the block values and then the
// tree's launches. grid > 0: fixed_blocks with that many CTAs (the values do not depend on it).
template <precision P, class R>
void enqueue_reduce(const R& r, source_t<R> src, std::size_t n, typename R::result_type* d_result,
                    cudaStream_t stream, int grid = 0) {
    using V = det::value_t<P, typename R::accumulator_type>;
    const std::size_t m = det::block_count(n);
    const bool one_launch = m <= last_group<V>;
    const std::size_t bytes = (m + (one_launch ? 0 : tree_scratch<V>(m))) * sizeof(V);
    const counted_workspace ws = counted_workspace_for(bytes, stream, nullptr, one_launch);
    V* values = static_cast<V*>(ws.values);
    if (!one_launch) {
        enqueue_blocks<P>(r, src, n, 0, values, stream, grid);
        enqueue_tree<P>(r, values, m, values + m, d_result, stream);
        return;
    }
    if (grid <= 0 && m <= static_cast<std::size_t>(staged_wave<P, R>())) {
        launch("fixed_blocks_staged launch", fixed_blocks_staged<P, R>, static_cast<unsigned>(m), block_threads, stream, r,
               src, n, values, d_result, ws.done);
        return;
    }
    launch("fixed_blocks (one launch) launch", fixed_blocks<P, R>, blocks_grid<P, R>(m, grid), block_threads, stream, r,
           src, n, std::size_t{0}, values, d_result, ws.done);
}

} // namespace preduce::cuda::detail::fixed
