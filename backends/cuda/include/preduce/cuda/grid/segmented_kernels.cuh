#pragma once
// Grid layer for many results per call (preduce/detail/algorithm/segment_layout.hpp says which elements
// each result reduces). Every segment is reduced as if it were the whole input: indices
// from its first element, the identity when empty, its own fixed order.
//
//  - contiguous segments (offsets, fixed): one warp per segment, grid-stride over the
//    segments, coalesced loads (lane j takes elements j, j + 32, ...; a reducer that is not
//    commutative gives each lane one contiguous run, so the warp's lane-ordered tree keeps
//    the in-order fold). Longer segments are listed instead, for a block each, and the
//    longest are cut into jobs of a block each whose partial results are then combined in
//    order, so that a few long segments still fill the GPU (the tiers: enqueue below).
//  - strided segments (columns): one thread per segment, rows in order; neighbouring
//    threads read neighbouring columns, so every row's loads are coalesced.
//  - fixed order: the same shapes, each segment's 4096-element blocks folded as
//    fixed_order::block_value folds them (lanes j mod 32, then the shuffle tree), and the blocks
//    joined by a fixed_order::streaming_tree; long segments' jobs are whole subtrees of it.
// Offsets in device memory are checked here, segment by segment (the host cannot read
// them): a decreasing pair or an offset past n sets *bad, and the segment is not read.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "preduce/cuda/grid/fixed_order.cuh"
#include "preduce/cuda/block/block_reduce.cuh"
#include "preduce/cuda/grid/kernels.cuh"
#include "preduce/cuda/thread/thread_fold.cuh"
#include "preduce/cuda/tuning.hpp"
#include "preduce/cuda/grid/launch.cuh"
#include "preduce/cuda/runtime/check.hpp"
#include "preduce/cuda/runtime/memory.hpp"
#include "preduce/cuda/warp/warp_reduce.cuh"
#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/detail/algorithm/segment_layout.hpp"
#include "preduce/reducers.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda::detail::segments {

namespace fixed_order = ::preduce::detail::fixed_order;
using layout = ::preduce::detail::segment_layout;

// A segment too long for the kernel that met it: reduced afterwards on its own. For the
// jobs of segment_chunks, first_job numbers its first job (the others follow it).
struct big_segment {
    std::uint64_t s, begin, length, first_job;
};

// Where a segment listed for segment_chunks goes: its place in the list (listed[0] counts
// them) and the first of its consecutive job numbers (listed[3] counts those).
struct job_slot {
    unsigned long long at, first_job;
};
__device__ __forceinline__ job_slot take_jobs(std::uint64_t length, std::uint64_t chunk, unsigned long long* listed) {
    return {atomicAdd(listed, 1ull), atomicAdd(listed + 3, (length + chunk - 1) / chunk)};
}

// One thread lists segment s for the jobs of `chunk` elements: its list entry, and the owner
// of each of its jobs.
__device__ __forceinline__ void list_for_jobs(std::uint64_t s, std::uint64_t begin, std::uint64_t length,
                                              std::uint64_t chunk, big_segment* list, unsigned long long* listed,
                                              std::uint64_t* owner) {
    const job_slot slot = take_jobs(length, chunk, listed);
    list[slot.at] = {s, begin, length, slot.first_job};
    for (std::uint64_t j = 0; j < (length + chunk - 1) / chunk; ++j) owner[slot.first_job + j] = slot.at;
}

// Segment s's extent, with device-resident offsets checked: false for a bad segment.
__device__ __forceinline__ bool segment_extent(const layout& L, std::uint64_t s, std::uint64_t n, std::uint64_t& begin,
                                               std::uint64_t& len, int* bad) {
    begin = L.begin(s);
    if (L.form == ::preduce::detail::segment_form::offsets) {
        const std::uint64_t end = L.offsets[s + 1];
        if (end < begin || end > n) {
            *bad = 1;
            return false;
        }
        len = end - begin;
        return true;
    }
    len = L.length(s);
    return true;
}

// A group of G lanes (1, 2, .. 32: about the segments' mean length) per segment, groups
// grid-stride over the segments; every lane of a warp runs the same number of rounds, so the
// group's shuffle tree always has the whole warp. G is a template parameter, so that the
// lane's loop over its segment is unrolled and keeps several loads in flight. Small
// accumulators: registers capped so that 8 blocks fit an SM (more loads in flight). Larger
// ones (argmin) would spill under that cap.
template <int G, class R>
__global__ void __launch_bounds__(tuning::segment_threads,
                                  sizeof(typename R::accumulator_type) <= 8 ? tuning::segment_group_blocks_per_sm : 1)
    group_per_segment(R r, source_t<R> src, layout L, std::uint64_t n, typename R::result_type* __restrict__ out,
                      std::uint64_t small, big_segment* __restrict__ medium, std::uint64_t big,
                      big_segment* __restrict__ list, unsigned long long* __restrict__ listed,
                      std::uint64_t* __restrict__ owner, int* bad) {
    using A = typename R::accumulator_type;
    const unsigned lane = threadIdx.x % G;
    const std::uint64_t group = (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / G;
    const std::uint64_t groups = static_cast<std::uint64_t>(gridDim.x) * blockDim.x / G;
    const std::uint64_t warp_first = group - (threadIdx.x % 32) / G;  // the warp's first group
    for (std::uint64_t round = 0; warp_first + round * groups < L.count; ++round) {
        const std::uint64_t s = group + round * groups;
        std::uint64_t begin = 0, len = 0;
        bool mine = s < L.count && segment_extent(L, s, n, begin, len, bad);
        if (mine && len > small) {  // to block_per_segment, or cut into jobs for segment_chunks
            if (lane == 0) {
                if (len > big) {
                    list_for_jobs(s, begin, len, big, list, listed, owner);
                } else {
                    medium[atomicAdd(listed + 1, 1ull)] = {s, begin, len, 0};
                }
            }
            mine = false;
        }
        A acc = R::identity();
        if (mine) {
            const auto seg = src + begin;
            if constexpr (is_commutative_v<R>) {
                for (std::uint64_t j = lane; j < len; j += G) acc = R::combine(acc, r.lift(seg[j], j));
            } else {
                const std::uint64_t per = (len + G - 1) / G;
                const std::uint64_t lo = lane * per < len ? lane * per : len, hi = lo + per < len ? lo + per : len;
                for (std::uint64_t j = lo; j < hi; ++j) acc = R::combine(acc, r.lift(seg[j], j));
            }
        }
        acc = warp_reduce<R, G>(acc);
        if (mine && lane == 0) store_whole(out + s, r.finish(acc));
    }
}

// One block per segment, grid-stride, folded with the single-array thread and block layers
// (vector loads, the reducers' fast thread states): over the segments listed by
// group_per_segment (list != nullptr, *count of them), or over every segment of L, listing
// those longer than `big` for segment_chunks instead (owner[j]: the list entry of job j).
template <class R>
__global__ void __launch_bounds__(tuning::block_threads)
    block_per_segment(R r, source_t<R> src, layout L, std::uint64_t n, const big_segment* __restrict__ list,
                      const unsigned long long* listed_medium, std::uint64_t big, big_segment* __restrict__ big_list,
                      unsigned long long* __restrict__ listed_big, std::uint64_t* __restrict__ owner, int* bad,
                      typename R::result_type* __restrict__ out) {
    constexpr int B = tuning::block_threads;
    const std::uint64_t count = list != nullptr ? *listed_medium : L.count;
    for (std::uint64_t i = blockIdx.x; i < count; i += gridDim.x) {
        big_segment seg;
        if (list != nullptr) {
            seg = list[i];
        } else {
            seg.s = i;
            if (!segment_extent(L, i, n, seg.begin, seg.length, bad)) continue;  // uniform in the block
            if (seg.length > big) {  // uniform in the block
                __shared__ job_slot slot;
                if (threadIdx.x == 0) slot = take_jobs(seg.length, big, listed_big);
                __syncthreads();
                const job_slot mine = slot;
                __syncthreads();  // read by all before thread 0 may take the next slot
                if (threadIdx.x == 0) big_list[mine.at] = {seg.s, seg.begin, seg.length, mine.first_job};
                for (std::uint64_t j = threadIdx.x; j < (seg.length + big - 1) / big; j += B)
                    owner[mine.first_job + j] = mine.at;
                continue;
            }
        }
        auto acc = thread_fold<B>(r, src + seg.begin, seg.length, 0, grid_slot{0, 1});
        acc = block_reduce<B, R>(acc);
        if (threadIdx.x == 0) store_whole(out + seg.s, r.finish(acc));
        __syncthreads();  // block_reduce's shared memory is reused by the next segment
    }
}

// The jobs of the long segments (listed[3] of them), grid-stride: job j is chunk elements of
// the segment owner[j] names (indices counted from the segment's start), its accumulator into
// partials[j]. One wave of blocks: where no segment was that long, they only read the count.
template <class R>
__global__ void __launch_bounds__(tuning::block_threads)
    segment_chunks(R r, source_t<R> src, const big_segment* __restrict__ list, const unsigned long long* listed,
                   const std::uint64_t* __restrict__ owner, std::uint64_t chunk,
                   typename R::accumulator_type* __restrict__ partials) {
    constexpr int B = tuning::block_threads;
    const std::uint64_t jobs = listed[3];
    for (std::uint64_t j = blockIdx.x; j < jobs; j += gridDim.x) {
        const big_segment seg = list[owner[j]];
        const std::uint64_t from = (j - seg.first_job) * chunk;
        const std::uint64_t to = from + chunk < seg.length ? from + chunk : seg.length;
        auto acc = thread_fold<B>(r, src + (seg.begin + from), to - from, from, grid_slot{0, 1});
        acc = block_reduce<B, R>(acc);
        if (threadIdx.x == 0) store_whole(partials + j, acc);
        __syncthreads();  // block_reduce's shared memory is reused by the next job
    }
}

// Thread i: listed segment i's jobs combined in order, finished.
template <class R>
__global__ void combine_chunks(R r, const big_segment* __restrict__ list, const unsigned long long* listed,
                               std::uint64_t chunk, const typename R::accumulator_type* __restrict__ partials,
                               typename R::result_type* __restrict__ out) {
    const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= listed[0]) return;
    const big_segment seg = list[i];
    const std::uint64_t jobs = (seg.length + chunk - 1) / chunk;
    auto acc = R::identity();
    for (std::uint64_t j = 0; j < jobs; ++j) acc = R::combine(acc, partials[seg.first_job + j]);
    store_whole(out + seg.s, r.finish(acc));
}

// The fixed order, contiguous segments: each warp takes per_warp (1 or 32) segments at a
// time, lane j the (j+1)-th. A segment of at most 32 elements is its lane's alone
// (fixed_order::short_value: one row, no warp traffic), so that short segments cost a load and
// a few additions each; the warp then reduces the longer ones together, one after another, lane j
// adding elements j, j + 32, ... of each block, the shuffle tree, the block tree in lane 0;
// segments longer than `big` are cut into jobs for fixed_segment_chunks.
template <precision P, class R>
__global__ void __launch_bounds__(tuning::segment_threads)
    warp_per_segment_fixed(R r, source_t<R> src, layout L, std::uint64_t n, typename R::result_type* __restrict__ out,
                           std::uint64_t big, big_segment* __restrict__ list, unsigned long long* __restrict__ listed,
                           std::uint64_t* __restrict__ owner, int* bad, unsigned per_warp) {
    using A = typename R::accumulator_type;
    using V = fixed_order::value_t<P, A>;
    constexpr unsigned full = 0xffffffffu;
    const unsigned lane = threadIdx.x % 32;
    const std::uint64_t warps = static_cast<std::uint64_t>(gridDim.x) * (blockDim.x / 32);
    for (std::uint64_t first = (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32 * per_warp;
         first < L.count; first += warps * per_warp) {
        const std::uint64_t s = first + lane;
        std::uint64_t begin = 0, len = 0;
        const bool mine = lane < per_warp && s < L.count && segment_extent(L, s, n, begin, len, bad);
        if (mine && len <= 32)
            store_whole(out + s, r.finish(fixed_order::result<P, A>(fixed_order::short_value<P>(r, src + begin, len))));
        for (unsigned longer = __ballot_sync(full, mine && len > 32); longer != 0; longer &= longer - 1) {
            const int who = __ffs(static_cast<int>(longer)) - 1;  // uniform in the warp
            const std::uint64_t seg_begin = __shfl_sync(full, begin, who), seg_len = __shfl_sync(full, len, who);
            const std::uint64_t seg_s = first + static_cast<unsigned>(who);
            if (seg_len > big) {  // to fixed_segment_chunks
                if (lane == 0) list_for_jobs(seg_s, seg_begin, seg_len, big, list, listed, owner);
                continue;
            }
            const auto seg = src + seg_begin;
            fixed_order::streaming_tree<P, A> tree(fixed_order::block_count(seg_len));
            for (std::uint64_t b0 = 0; b0 < seg_len; b0 += fixed_order::block) {
                const std::uint64_t last = seg_len - b0 < fixed_order::block ? seg_len : b0 + fixed_order::block;
                V acc = fixed_order::zero<P, A>(R::identity());
                for (std::uint64_t i = b0 + lane; i < last; i += 32) fixed_order::add<P, A>(acc, r.lift(seg[i], i));
#pragma unroll
                for (unsigned w = 16; w > 0; w /= 2) acc = fixed_order::merge<P, A>(acc, fixed::shfl_down<P, A>(acc, w));
                if (lane == 0) tree.push(acc);
            }
            if (lane == 0) store_whole(out + seg_s, r.finish(fixed_order::result<P, A>(tree.root(R::identity()))));
        }
    }
}

// The fixed order's jobs of the long segments (listed[3] of them), grid-stride: job j is
// `chunk` elements (a power-of-two number of blocks, tuning.hpp) of the segment owner[j]
// names, whose blocks the CTA's warps take in turn (fixed_blocks' full_block and
// short_block, the segment's own block numbers); the CTA's first thread joins their values
// in order. A job starts at a multiple of its block count, so its tree is a node of the
// segment's block tree: into partials[j], for combine_fixed_chunks.
template <precision P, class R>
__global__ void __launch_bounds__(tuning::block_threads)
    fixed_segment_chunks(R r, source_t<R> src, const big_segment* __restrict__ list, const unsigned long long* listed,
                         const std::uint64_t* __restrict__ owner, std::uint64_t chunk,
                         fixed_order::value_t<P, typename R::accumulator_type>* __restrict__ partials) {
    using A = typename R::accumulator_type;
    using V = fixed_order::value_t<P, A>;
    constexpr unsigned warps = tuning::block_threads / 32;
    __shared__ V round_values[warps];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const std::uint64_t jobs = listed[3];
    for (std::uint64_t j = blockIdx.x; j < jobs; j += gridDim.x) {
        const big_segment seg = list[owner[j]];
        const std::uint64_t from = (j - seg.first_job) * chunk;
        const std::uint64_t to = from + chunk < seg.length ? from + chunk : seg.length;
        const std::uint64_t first_block = from / fixed_order::block, blocks = fixed_order::block_count(to - from);
        const auto x = src + seg.begin;
        fixed_order::streaming_tree<P, A> tree(blocks);  // thread 0's
        for (std::uint64_t round = 0; round < blocks; round += warps) {
            const std::uint64_t b = round + warp;  // uniform in the warp, as the shuffles need
            if (b < blocks) {
                const std::uint64_t block = first_block + b;
                const V v = (block + 1) * fixed_order::block <= seg.length
                                ? fixed::full_block<P, R, 1>(r, x, 0, block, lane, true)
                                : fixed::short_block<P, R>(r, x, seg.length, 0, block);
                if (lane == 0) round_values[warp] = v;
            }
            __syncthreads();
            if (threadIdx.x == 0)
                for (unsigned u = 0; u < warps && round + u < blocks; ++u) tree.push(round_values[u]);
            __syncthreads();  // round_values is written again next round
        }
        if (threadIdx.x == 0) store_whole(partials + j, tree.root(R::identity()));
    }
}

// Thread i: listed segment i's job trees joined in order (the top of its block tree), finished.
template <precision P, class R>
__global__ void combine_fixed_chunks(R r, const big_segment* __restrict__ list, const unsigned long long* listed,
                                     std::uint64_t chunk,
                                     const fixed_order::value_t<P, typename R::accumulator_type>* __restrict__ partials,
                                     typename R::result_type* __restrict__ out) {
    using A = typename R::accumulator_type;
    const std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= listed[0]) return;
    const big_segment seg = list[i];
    const std::uint64_t jobs = (seg.length + chunk - 1) / chunk;
    fixed_order::streaming_tree<P, A> tree(jobs);
    for (std::uint64_t j = 0; j < jobs; ++j) tree.push(partials[seg.first_job + j]);
    store_whole(out + seg.s, r.finish(fixed_order::result<P, A>(tree.root(R::identity()))));
}

// Strided segments: thread (s, piece) folds rows [piece * rows, ...) of segment s in order
// (neighbouring threads take neighbouring columns: every row's loads are coalesced), into
// partials[piece * count + s], or, with one piece, the finished result into out[s].
template <class R>
__global__ void __launch_bounds__(tuning::segment_threads)
    column_pieces(R r, source_t<R> src, layout L, std::uint64_t pieces, std::uint64_t rows,
                  typename R::accumulator_type* __restrict__ partials, typename R::result_type* __restrict__ out) {
    using A = typename R::accumulator_type;
    const std::uint64_t threads = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t t = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; t < L.count * pieces;
         t += threads) {
        const std::uint64_t s = t % L.count, piece = t / L.count;
        const auto seg = src + L.begin(s);
        const std::uint64_t j0 = piece * rows, j1 = j0 + rows < L.size ? j0 + rows : L.size;
        A acc = R::identity();
        for (std::uint64_t j = j0; j < j1; ++j) acc = R::combine(acc, r.lift(seg[j * L.inner], j));
        if (pieces == 1) store_whole(out + s, r.finish(acc));
        else store_whole(partials + t, acc);
    }
}

// Thread s: the pieces of column s combined in row order, finished.
template <class R>
__global__ void combine_columns(R r, std::uint64_t count, std::uint64_t pieces,
                                const typename R::accumulator_type* __restrict__ partials,
                                typename R::result_type* __restrict__ out) {
    const std::uint64_t s = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (s >= count) return;
    auto acc = partials[s];
    for (std::uint64_t p = 1; p < pieces; ++p) acc = R::combine(acc, partials[p * count + s]);
    store_whole(out + s, r.finish(acc));
}

template <precision P, class R>
__global__ void __launch_bounds__(tuning::segment_threads)
    thread_per_column_fixed(R r, source_t<R> src, layout L, typename R::result_type* __restrict__ out) {
    using A = typename R::accumulator_type;
    const std::uint64_t threads = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t s = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; s < L.count; s += threads) {
        const ::preduce::detail::strided_source<source_t<R>> seg{src + L.begin(s), L.inner};
        const std::uint64_t m = fixed_order::block_count(L.size);
        fixed_order::streaming_tree<P, A> tree(m);
        for (std::uint64_t b = 0; b < m; ++b) tree.push(fixed_order::block_value<P>(r, seg, L.size, b));
        store_whole(out + s, r.finish(fixed_order::result<P, A>(tree.root(R::identity()))));
    }
}

} // namespace preduce::cuda::detail::segments

namespace preduce::cuda::detail::segments {

// Segment tiers of the fast order (every segment is reduced whole by one of them; the tier
// changes how fast, never what), by the tuning table's lengths (tuning.hpp):
//   len <= small                        a group of lanes in group_per_segment
//   small < len <= chunk                one block in block_per_segment (every segment goes
//                                       there first when the mean length is over small)
//   len > chunk                         jobs of chunk elements, a block each (segment_chunks)
// with small = segment_small_elements, chunk = segment_chunk_elements. The fixed order: a
// warp per segment up to segment_warp_elements, then jobs of that many elements, a block
// each (fixed_segment_chunks), in the same launches whatever the number of long segments.

struct lists {
    big_segment* big;     // segments cut into jobs
    big_segment* medium;  // fast order: segments for block_per_segment
    unsigned long long* count;  // [0]: big listed, [1]: medium listed, [2]: the bad-offsets flag, [3]: jobs
    int* bad;
    std::uint64_t* owner;  // the big list's entry for each job
    std::uint64_t big_capacity, medium_capacity, job_capacity;
};

// Every segment of L over device-readable src into device-writable out, on `stream`; waits
// for the stream. Throws invalid_argument when device-resident offsets turn out bad.
template <precision P, class R>
void enqueue(const R& r, source_t<R> src, std::uint64_t n, const layout& L, typename R::result_type* out,
             cudaStream_t stream) {
    using A = typename R::accumulator_type;
    constexpr int threads = tuning::segment_threads;
    const int device = current_device();
    const tuning::table& t = tuning::for_device(device);
    const std::uint64_t small_elements = t.segment_small_elements, chunk_elements = t.segment_chunk_elements,
                        big_elements = t.segment_warp_elements;
    const auto grid_for_items = [](std::uint64_t items, std::uint64_t per_block) {
        const std::uint64_t blocks = (items + per_block - 1) / per_block;
        return static_cast<unsigned>(blocks < 65535u * 16 ? (blocks == 0 ? 1 : blocks) : 65535u * 16);
    };
    if (L.form == ::preduce::detail::segment_form::strided) {
        if constexpr (P == precision::fast) {
            // Rows split into pieces until the threads fill the GPU a few times over.
            int sms = 0;
            check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
            const std::uint64_t want = static_cast<std::uint64_t>(sms) * t.strided_threads_per_sm;
            std::uint64_t pieces = L.count == 0 ? 1 : (want + L.count - 1) / L.count;
            const std::uint64_t most = (L.size + t.strided_min_rows - 1) / t.strided_min_rows;  // strided_min_rows a piece
            pieces = pieces < most ? pieces : most;
            if (pieces < 1) pieces = 1;
            const std::uint64_t rows = (L.size + pieces - 1) / pieces;
            device_buffer partials(pieces > 1 ? pieces * L.count * sizeof(A) : 0, stream);
            launch("column_pieces launch", column_pieces<R>, grid_for_items(L.count * pieces, threads), threads, stream, r,
                   src, L, pieces, rows, partials.as<A>(), out);
            if (pieces > 1)
                launch("combine_columns launch", combine_columns<R>, grid_for_items(L.count, threads), threads, stream, r,
                       L.count, pieces, static_cast<const A*>(partials.as<A>()), out);
        } else {
            launch("thread_per_column_fixed launch", thread_per_column_fixed<P, R>, grid_for_items(L.count, threads),
                   threads, stream, r, src, L, out);
        }
        check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (kernel errors surface here)");
        return;
    }
    // The lists: room for every segment that can be that long, counters, the flag, the prefix.
    const std::uint64_t cut = P == precision::fast ? chunk_elements : big_elements;
    lists ls{};
    ls.big_capacity = n / (cut + 1) + 1;
    ls.medium_capacity = P == precision::fast ? n / (small_elements + 1) + 1 : 0;
    ls.job_capacity = n / cut + ls.big_capacity;  // each long segment adds one partial job
    const std::size_t bytes = (ls.big_capacity + ls.medium_capacity) * sizeof(big_segment) +
                              4 * sizeof(unsigned long long) + ls.job_capacity * sizeof(std::uint64_t);
    device_buffer scratch(bytes, stream);
    ls.big = scratch.as<big_segment>();
    ls.medium = ls.big + ls.big_capacity;
    ls.count = reinterpret_cast<unsigned long long*>(ls.medium + ls.medium_capacity);
    ls.bad = reinterpret_cast<int*>(ls.count + 2);
    ls.owner = reinterpret_cast<std::uint64_t*>(ls.count + 4);
    check(cudaMemsetAsync(ls.count, 0, 4 * sizeof(unsigned long long), stream), "cudaMemsetAsync");
    if constexpr (P == precision::fast) {
        // Short segments on average: groups of lanes (a quarter of the mean length, 1 .. 32), the
        // longer ones listed for a block each (few atomics: they are the exceptions); the list is
        // served by one wave of blocks that stride over however many were listed. Long segments on
        // average: a block per segment straight away (blocks stride on past the grid limit), so
        // the hardware overlaps one block's loads with another's tree.
        const std::uint64_t mean = L.count == 0 ? 0 : n / L.count;
        const auto blocks_for = [](std::uint64_t items) {
            constexpr std::uint64_t most = 0x7fffffffu;
            return static_cast<unsigned>(items == 0 ? 1 : items < most ? items : most);
        };
        static wave_cache waves{};
        const auto one_wave_of = [&](std::uint64_t items) {
            const auto wave = static_cast<std::uint64_t>(
                one_wave(waves, block_per_segment<R>, tuning::block_threads, t.blocks_per_sm));
            return static_cast<unsigned>(items == 0 ? 1 : items < wave ? items : wave);
        };
        if (mean <= small_elements) {
            const auto go = [&](auto width) {
                constexpr int G = decltype(width)::value;
                launch("group_per_segment launch", group_per_segment<G, R>, grid_for_items(L.count, threads / G), threads,
                       stream, r, src, L, n, out, small_elements, ls.medium, chunk_elements, ls.big, ls.count, ls.owner,
                       ls.bad);
            };
            // About a quarter of the mean length, 1 .. 32 lanes.
            if (mean <= 8) go(std::integral_constant<int, 1>{});
            else if (mean <= 16) go(std::integral_constant<int, 2>{});
            else if (mean <= 32) go(std::integral_constant<int, 4>{});
            else if (mean <= 64) go(std::integral_constant<int, 8>{});
            else if (mean <= 128) go(std::integral_constant<int, 16>{});
            else go(std::integral_constant<int, 32>{});
            launch("block_per_segment launch", block_per_segment<R>, one_wave_of(ls.medium_capacity), tuning::block_threads,
                   stream, r, src, L, n, static_cast<const big_segment*>(ls.medium),
                   static_cast<const unsigned long long*>(ls.count + 1), chunk_elements, ls.big, ls.count, ls.owner,
                   ls.bad, out);
        } else {
            launch("block_per_segment launch", block_per_segment<R>, blocks_for(L.count), tuning::block_threads, stream, r,
                   src, L, n, static_cast<const big_segment*>(nullptr), static_cast<const unsigned long long*>(nullptr),
                   chunk_elements, ls.big, ls.count, ls.owner, ls.bad, out);
        }
        device_buffer partials(ls.job_capacity * sizeof(A), stream);
        static wave_cache chunk_waves{};
        const auto chunk_wave = static_cast<std::uint64_t>(
            one_wave(chunk_waves, segment_chunks<R>, tuning::block_threads, t.blocks_per_sm));
        launch("segment_chunks launch", segment_chunks<R>,
               static_cast<unsigned>(ls.job_capacity < chunk_wave ? ls.job_capacity : chunk_wave), tuning::block_threads,
               stream, r, src, static_cast<const big_segment*>(ls.big), static_cast<const unsigned long long*>(ls.count),
               static_cast<const std::uint64_t*>(ls.owner), chunk_elements, partials.as<A>());
        launch("combine_chunks launch", combine_chunks<R>, static_cast<unsigned>((ls.big_capacity + threads - 1) / threads),
               threads, stream, r, static_cast<const big_segment*>(ls.big),
               static_cast<const unsigned long long*>(ls.count), chunk_elements, static_cast<const A*>(partials.as<A>()),
               out);
    } else {
        using V = fixed_order::value_t<P, A>;
        // Short segments on average: a lane per segment first; otherwise a warp per segment.
        const unsigned per_warp = L.count != 0 && n / L.count <= 2 * 32 ? 32 : 1;
        launch("warp_per_segment_fixed launch", warp_per_segment_fixed<P, R>,
               grid_for_items(L.count, threads / 32 * per_warp), threads, stream, r, src, L, n, out, big_elements, ls.big,
               ls.count, ls.owner, ls.bad, per_warp);
        device_buffer partials(ls.job_capacity * sizeof(V), stream);
        static wave_cache chunk_waves{};
        const auto chunk_wave = static_cast<std::uint64_t>(
            one_wave(chunk_waves, fixed_segment_chunks<P, R>, tuning::block_threads, t.blocks_per_sm));
        launch("fixed_segment_chunks launch", fixed_segment_chunks<P, R>,
               static_cast<unsigned>(ls.job_capacity < chunk_wave ? ls.job_capacity : chunk_wave), tuning::block_threads,
               stream, r, src, static_cast<const big_segment*>(ls.big), static_cast<const unsigned long long*>(ls.count),
               static_cast<const std::uint64_t*>(ls.owner), big_elements, partials.as<V>());
        launch("combine_fixed_chunks launch", combine_fixed_chunks<P, R>,
               static_cast<unsigned>((ls.big_capacity + threads - 1) / threads), threads, stream, r,
               static_cast<const big_segment*>(ls.big), static_cast<const unsigned long long*>(ls.count), big_elements,
               static_cast<const V*>(partials.as<V>()), out);
    }
    struct flags {
        unsigned long long big, medium;
        int bad;
    };
    flags* host = result_slot<flags>();
    check(cudaMemcpyAsync(host, ls.count, sizeof(flags), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync (segment flags)");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (kernel errors surface here)");
    if (host->bad)
        throw invalid_argument("preduce::reduce_segments: the offsets (in device memory) decrease somewhere or point past "
                               "the end of the data (" + std::to_string(n) + " elements); the output is not valid");
}

} // namespace preduce::cuda::detail::segments
