#pragma once
// Grid layer for many results per call (preduce/detail/segments.hpp says which elements
// each result reduces). Every segment is reduced as if it were the whole input: indices
// from its first element, the identity when empty, its own fixed order.
//
//  - contiguous segments (offsets, fixed): one warp per segment, grid-stride over the
//    segments, coalesced loads (lane j takes elements j, j + 32, ...; a reducer that is not
//    commutative gives each lane one contiguous run, so the warp's lane-ordered tree keeps
//    the in-order fold). Segments longer than `big` are listed instead, for a launch of the
//    single-array machinery each (grid/launch.cuh, grid/fixed_order.cuh), which streams them
//    at full bandwidth.
//  - strided segments (columns): one thread per segment, rows in order; neighbouring
//    threads read neighbouring columns, so every row's loads are coalesced.
//  - fixed order: the same shapes, each segment's 4096-element blocks folded as
//    det::block_value folds them (lanes j mod 32, then the shuffle tree), and the blocks
//    joined by a det::streaming_tree.
// Offsets in device memory are checked here, segment by segment (the host cannot read
// them): a decreasing pair or an offset past n sets *bad, and the segment is not read.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "preduce/cuda/grid/fixed_order.cuh"
#include "preduce/cuda/grid/kernels.cuh"
#include "preduce/cuda/grid/launch.cuh"
#include "preduce/cuda/runtime/check.hpp"
#include "preduce/cuda/runtime/memory.hpp"
#include "preduce/cuda/warp/warp_reduce.cuh"
#include "preduce/detail/fixed_order/order.hpp"
#include "preduce/detail/segments.hpp"
#include "preduce/reducers.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda::detail::segments {

namespace det = ::preduce::detail::det;
using layout = ::preduce::detail::segment_layout;

// A segment too long for one warp: reduced afterwards on its own.
struct big_segment {
    std::uint64_t s, begin, length;
};

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

template <class R>
__global__ void __launch_bounds__(256)
    warp_per_segment(R r, source_t<R> src, layout L, std::uint64_t n, typename R::result_type* __restrict__ out,
                     std::uint64_t big, big_segment* __restrict__ list, unsigned long long* __restrict__ listed, int* bad) {
    using A = typename R::accumulator_type;
    const unsigned lane = threadIdx.x % 32;
    const std::uint64_t warps = static_cast<std::uint64_t>(gridDim.x) * (blockDim.x / 32);
    for (std::uint64_t s = (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; s < L.count;
         s += warps) {
        std::uint64_t begin = 0, len = 0;
        if (!segment_extent(L, s, n, begin, len, bad)) continue;
        if (len > big) {
            if (lane == 0) list[atomicAdd(listed, 1ull)] = {s, begin, len};
            continue;
        }
        const auto seg = src + begin;
        A acc = R::identity();
        if constexpr (is_commutative_v<R>) {
            for (std::uint64_t j = lane; j < len; j += 32) acc = R::combine(acc, r.lift(seg[j], j));
        } else {
            const std::uint64_t per = (len + 31) / 32;
            const std::uint64_t lo = lane * per < len ? lane * per : len, hi = lo + per < len ? lo + per : len;
            for (std::uint64_t j = lo; j < hi; ++j) acc = R::combine(acc, r.lift(seg[j], j));
        }
        acc = warp_reduce<R>(acc);
        if (lane == 0) store_whole(out + s, r.finish(acc));
    }
}

template <precision P, class R>
__global__ void __launch_bounds__(256)
    warp_per_segment_fixed(R r, source_t<R> src, layout L, std::uint64_t n, typename R::result_type* __restrict__ out,
                           std::uint64_t big, big_segment* __restrict__ list, unsigned long long* __restrict__ listed,
                           int* bad) {
    using A = typename R::accumulator_type;
    using V = det::value_t<P, A>;
    const unsigned lane = threadIdx.x % 32;
    const std::uint64_t warps = static_cast<std::uint64_t>(gridDim.x) * (blockDim.x / 32);
    for (std::uint64_t s = (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; s < L.count;
         s += warps) {
        std::uint64_t begin = 0, len = 0;
        if (!segment_extent(L, s, n, begin, len, bad)) continue;
        if (len > big) {
            if (lane == 0) list[atomicAdd(listed, 1ull)] = {s, begin, len};
            continue;
        }
        const auto seg = src + begin;
        det::streaming_tree<P, A> tree(det::block_count(len));
        for (std::uint64_t first = 0; first < len; first += det::block) {
            const std::uint64_t last = len - first < det::block ? len : first + det::block;
            V acc = det::zero<P, A>(R::identity());
            for (std::uint64_t i = first + lane; i < last; i += 32) det::add<P, A>(acc, r.lift(seg[i], i));
#pragma unroll
            for (unsigned w = 16; w > 0; w /= 2) acc = det::merge<P, A>(acc, fixed::shfl_down<P, A>(acc, w));
            if (lane == 0) tree.push(acc);
        }
        if (lane == 0) store_whole(out + s, r.finish(det::result<P, A>(tree.root(R::identity()))));
    }
}

// Strided segments: thread per segment, rows in order.
template <class R>
__global__ void __launch_bounds__(256)
    thread_per_column(R r, source_t<R> src, layout L, typename R::result_type* __restrict__ out) {
    using A = typename R::accumulator_type;
    const std::uint64_t threads = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t s = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; s < L.count; s += threads) {
        const auto seg = src + L.begin(s);
        A acc = R::identity();
        for (std::uint64_t j = 0; j < L.size; ++j) acc = R::combine(acc, r.lift(seg[j * L.inner], j));
        store_whole(out + s, r.finish(acc));
    }
}

template <precision P, class R>
__global__ void __launch_bounds__(256)
    thread_per_column_fixed(R r, source_t<R> src, layout L, typename R::result_type* __restrict__ out) {
    using A = typename R::accumulator_type;
    const std::uint64_t threads = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
    for (std::uint64_t s = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; s < L.count; s += threads) {
        const ::preduce::detail::strided_source<source_t<R>> seg{src + L.begin(s), L.inner};
        const std::uint64_t m = det::block_count(L.size);
        det::streaming_tree<P, A> tree(m);
        for (std::uint64_t b = 0; b < m; ++b) tree.push(det::block_value<P>(r, seg, L.size, b));
        store_whole(out + s, r.finish(det::result<P, A>(tree.root(R::identity()))));
    }
}

} // namespace preduce::cuda::detail::segments

namespace preduce::cuda::detail::segments {

// Segments longer than this go to the single-array machinery, one launch pair each: at
// 2^16 elements a warp alone would take longer than two launches.
inline constexpr std::uint64_t big_elements = std::uint64_t{1} << 16;

// Every segment of L over device-readable src into device-writable out, on `stream`; waits
// for the stream (the big segments' list comes back to the host). Throws invalid_argument
// when device-resident offsets turn out bad.
template <precision P, class R>
void enqueue(const R& r, source_t<R> src, std::uint64_t n, const layout& L, typename R::result_type* out,
             cudaStream_t stream) {
    constexpr int threads = 256;
    const auto grid_for_items = [](std::uint64_t items, std::uint64_t per_block) {
        const std::uint64_t blocks = (items + per_block - 1) / per_block;
        return static_cast<unsigned>(blocks < 65535u * 16 ? (blocks == 0 ? 1 : blocks) : 65535u * 16);
    };
    if (L.form == ::preduce::detail::segment_form::strided) {
        if constexpr (P == precision::fast)
            launch("thread_per_column launch", thread_per_column<R>, grid_for_items(L.count, threads), threads, stream, r, src,
                   L, out);
        else
            launch("thread_per_column_fixed launch", thread_per_column_fixed<P, R>, grid_for_items(L.count, threads),
                   threads, stream, r, src, L, out);
        check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (kernel errors surface here)");
        return;
    }
    // Room for every segment that can be longer than big_elements, and two counters.
    const std::uint64_t most_big = n / (big_elements + 1) + 1;
    device_buffer scratch(most_big * sizeof(big_segment) + 2 * sizeof(unsigned long long), stream);
    auto* list = scratch.as<big_segment>();
    auto* listed = reinterpret_cast<unsigned long long*>(list + most_big);
    int* bad = reinterpret_cast<int*>(listed + 1);
    check(cudaMemsetAsync(listed, 0, 2 * sizeof(unsigned long long), stream), "cudaMemsetAsync");
    const unsigned grid = grid_for_items(L.count, threads / 32);
    if constexpr (P == precision::fast)
        launch("warp_per_segment launch", warp_per_segment<R>, grid, threads, stream, r, src, L, n, out, big_elements, list,
               listed, bad);
    else
        launch("warp_per_segment_fixed launch", warp_per_segment_fixed<P, R>, grid, threads, stream, r, src, L, n, out,
               big_elements, list, listed, bad);
    struct flags {
        unsigned long long listed;
        int bad;
    };
    flags* host = result_slot<flags>();
    check(cudaMemcpyAsync(host, listed, sizeof(flags), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync (segment flags)");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (kernel errors surface here)");
    if (host->bad)
        throw invalid_argument("preduce::reduce_segments: the offsets (in device memory) decrease somewhere or point past "
                               "the end of the data (" + std::to_string(n) + " elements); the output is not valid");
    if (host->listed == 0) return;
    std::vector<big_segment> bigs(host->listed);
    check(cudaMemcpyAsync(bigs.data(), list, bigs.size() * sizeof(big_segment), cudaMemcpyDeviceToHost, stream),
          "cudaMemcpyAsync (big segments)");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    for (const big_segment& b : bigs) {
        if constexpr (P == precision::fast) enqueue_reduce(r, src + b.begin, b.length, out + b.s, stream);
        else fixed::enqueue_reduce<P>(r, src + b.begin, b.length, out + b.s, stream);
    }
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (kernel errors surface here)");
}

} // namespace preduce::cuda::detail::segments
