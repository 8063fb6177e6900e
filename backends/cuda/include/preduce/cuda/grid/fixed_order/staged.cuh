#pragma once
// fixed_blocks_staged: the whole fixed-order reduction in one launch, a CTA per block that
// stages it in shared memory, then the in-launch tree.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <type_traits>

#include "preduce/cuda/block/named_barrier.cuh"
#include "preduce/cuda/grid/fixed_order/tree.cuh"
#include "preduce/cuda/grid/kernels.cuh"
#include "preduce/detail/fixed_order/order.hpp"
#include "preduce/precision.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda::detail::fixed {

// Values of A that fixed_blocks_staged holds in shared memory at once: 16 KiB, the whole
// block of 4-byte values, half a block of doubles. Each lane holds its share of it in
// registers while its loads are in flight (16 values of 4 bytes, 8 doubles): what fits the
// 32 registers a thread has when eight CTAs share an SM.
template <class A>
inline constexpr std::size_t staged_part = std::min(det::block, (std::size_t{16} << 10) / sizeof(A));
// CTAs of fixed_blocks_staged an SM holds: eight (32 registers a thread); six for the
// compensated sums (40 registers), whose wider lanes and pairs spill out of 32 registers
// (measured on an H200: 2^22 double sums at 0.78 of the fast sum's speed with spills, 0.87
// through the block pass).
template <precision P>
inline constexpr int staged_ctas_per_sm = P == precision::compensated ? 6 : 8;

// Threads of fixed_blocks_staged for a single block of count values: a warp for each eighth
// of a part that holds a value (every warp where the block takes more than one part).
template <class A>
constexpr unsigned staged_threads(std::size_t count) {
    constexpr std::size_t eighth = staged_part<A> / warps_per_cta;
    const std::size_t warps = count > staged_part<A> ? warps_per_cta : (count + eighth - 1) / eighth;
    return static_cast<unsigned>(32 * warps);
}

// The whole reduction of src[0, n) into *d_result in one launch, a CTA per block: m CTAs
// (m blocks, at most fold_group<V> of them: one group of the tree), then the tree in one
// round (hand_on, counters 0 at launch). The block goes through in parts of S =
// staged_part<A> values; each of the CTA's 8 warps loads an eighth of a part, the rows
// [w*S/256, (w+1)*S/256) of the lanes' order (lane j adds value j + 32k for k = 0, 1, ...),
// and warp 0 adds them in that order: its own eighth straight from its registers, each other
// warp's from shared memory once that warp has put it there (a named barrier per eighth,
// which only those two warps wait on). The adds of fixed_blocks in the same order, so the
// same bits, with one trip to memory per part where fixed_blocks' warp makes several, and
// the chain of adds starting when the first eighth arrives rather than the last.
// A single block (one CTA) may run with fewer warps (staged_threads): the eighths past the
// last warp's hold no value of any part, so leaving them out leaves out no add.
template <precision P, class R, std::size_t S>
__global__ void __launch_bounds__(block_threads, staged_ctas_per_sm<P>)
    fixed_blocks_staged(R r, source_t<R> src, std::size_t n, det::value_t<P, typename R::accumulator_type>* __restrict__ v,
                        typename R::result_type* __restrict__ d_result, unsigned* counters) {
    using A = typename R::accumulator_type;
    using V = det::value_t<P, A>;
    constexpr unsigned eighth = static_cast<unsigned>(S / warps_per_cta);  // values a warp loads
    constexpr unsigned rows = eighth / 32;                                 // per lane: 16, or 8 in the part form
    static_assert(det::block % S == 0 && eighth % 32 == 0 && warps_per_cta == 8);
    constexpr std::size_t stage_bytes = std::max(S * sizeof(A), fold_group<V> * sizeof(V));
    __shared__ alignas(16) unsigned char raw[stage_bytes];  // the staged values, then the tree
    A* stage = reinterpret_cast<A*>(raw);
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const std::size_t b = blockIdx.x, first = b * det::block;
    const std::size_t count = n - first < det::block ? n - first : det::block;
    V acc = det::zero<P, A>(R::identity());
    // One part: `here` values from position `at`; Full: here == S, no value to skip.
    const auto part_adds = [&](auto full, std::size_t at, unsigned here) {
        const auto in = [&](unsigned i) { return decltype(full)::value || i < here; };
        const unsigned mine = warp * eighth + lane;  // this lane's first value of the part
        const auto row = src + (at + mine);          // one address, constant offsets from it
        A x[rows];
#pragma unroll
        for (unsigned u = 0; u < rows; ++u) x[u] = in(mine + 32 * u) ? r.lift(row[32 * u], at + mine + 32 * u) : A{};
        if (warp != 0) {
#pragma unroll
            for (unsigned u = 0; u < rows; ++u)
                if (in(mine + 32 * u)) stage[mine + 32 * u] = x[u];
            named_arrive(warp, 64);  // this eighth is in shared memory, for warp 0
            return;
        }
        // Eighth w's adds, each register read again from eighth w + 1 once it is added (that
        // eighth's warp has arrived first): the adds never wait on shared memory.
        const unsigned warps = blockDim.x / 32;
#pragma unroll 1
        for (unsigned w = 0; w < warps; ++w) {
            const bool next = w + 1 < warps;
            if (next) named_sync(w + 1, 64);
#pragma unroll
            for (unsigned u = 0; u < rows; ++u) {
                const unsigned i = w * eighth + lane + 32 * u;
                if (in(i)) det::add<P, A>(acc, x[u]);
                if (next && in(i + eighth)) x[u] = stage[i + eighth];
            }
        }
    };
    for (std::size_t part = 0; part < count; part += S) {  // the same trips for every thread
        if (count - part >= S) part_adds(std::true_type{}, first + part, static_cast<unsigned>(S));
        else part_adds(std::false_type{}, first + part, static_cast<unsigned>(count - part));
        if (part + S < count) __syncthreads();  // warp 0 has read the stage before the next part overwrites it
    }
    if (warp == 0) acc = lane_tree<P, A>(acc);
    if (gridDim.x > 1 && counters == nullptr) {  // the block values alone
        if (threadIdx.x == 0) v[b] = acc;
        return;
    }
    // The block values are one group of the tree (gridDim.x <= fold_group<V>): its CTAs hand
    // their values on, and the last folds them (after the barrier in hand_on, which warp 0,
    // the stage's last reader, reaches after its adds). One block: its value is the tree,
    // finished here (no workspace: v and counters may be null).
    hand_on<P>(r, acc, v + b, gridDim.x, counters,
               [&] { return fold_in_shared<P, A>(reinterpret_cast<V*>(raw), [&](std::size_t i) { return v + i; },
                                                 gridDim.x); },
               d_result);
}

} // namespace preduce::cuda::detail::fixed
