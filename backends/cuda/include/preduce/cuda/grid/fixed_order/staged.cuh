#pragma once
// fixed_blocks_staged: the whole fixed-order reduction in one launch, a CTA per block that
// holds the block in its threads' registers, then the in-launch tree.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <type_traits>

#include "preduce/cuda/block/named_barrier.cuh"
#include "preduce/cuda/grid/fixed_order/tree.cuh"
#include "preduce/cuda/grid/kernels.cuh"
#include "preduce/cuda/tuning.hpp"
#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/precision.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda::detail::fixed {

// Warps of a fixed_blocks_staged CTA (tuning.hpp): each loads its share of the block, rows of
// the lanes' order, all in flight at once. Four warps of 32 rows a lane read the blocks as
// fast as the fast sum's pass reads them; more warps of fewer rows, or fewer of more, were
// slower (docs/fixed-order-gpu.md).
inline constexpr int staged_warps = tuning::staged_warps;
inline constexpr int staged_block_threads = 32 * staged_warps;
inline constexpr unsigned staged_quarter = static_cast<unsigned>(fixed_order::block / staged_warps);  // values a warp loads
static_assert(fixed_order::block % (32 * staged_warps) == 0);

// Threads of fixed_blocks_staged for a single block of count values: a warp for each
// quarter of the block that holds a value.
constexpr unsigned staged_threads(std::size_t count) {
    const std::size_t warps = count >= fixed_order::block ? staged_warps : (count + staged_quarter - 1) / staged_quarter;
    return static_cast<unsigned>(32 * warps);
}

// The whole reduction of src[0, n) into *d_result in one launch, a CTA per block: m CTAs
// (m blocks, at most fold_group<V> of them: one group of the tree), then the tree in one
// round (hand_on, counters 0 at launch). Warp w loads the rows [32w, 32w + 32) of the
// lanes' order (lane j adds value j + 32k for k = 0, 1, ...), 32 values a lane held in
// registers, converted to the lanes' type (wide_t: a compensated float lane's double, so
// each warp converts its own quarter and warp 0 does not convert them all); warps 1-3 put
// theirs in shared memory and arrive at a named barrier that only they and warp 0 wait on,
// and warp 0 adds its own rows and then theirs, in order. The adds of fixed_blocks in the
// same order, so the same bits, with the whole block in flight at once. A single block (one
// CTA) may run with fewer warps (staged_threads): the quarters past the last warp's hold no
// value, so leaving them out leaves out no add.
template <precision P, class R>
__global__ void __launch_bounds__(staged_block_threads)
    fixed_blocks_staged(R r, source_t<R> src, std::size_t n, fixed_order::value_t<P, typename R::accumulator_type>* __restrict__ v,
                        typename R::result_type* __restrict__ d_result, unsigned* counters) {
    using A = typename R::accumulator_type;
    using V = fixed_order::value_t<P, A>;
    using W = fixed_order::wide_t<P, A>;  // what the lanes add
    constexpr unsigned rows = staged_quarter / 32;
    constexpr std::size_t stage_values = (staged_warps - 1) * std::size_t{staged_quarter};  // warps 1-3's rows
    constexpr std::size_t stage_bytes = std::max(stage_values * sizeof(W), fold_group<V> * sizeof(V));
    __shared__ alignas(16) unsigned char raw[stage_bytes];  // the staged rows, then the tree
    W* stage = reinterpret_cast<W*>(raw);                   // warp w's rows from (w - 1) * staged_quarter
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const std::size_t b = blockIdx.x, first = b * fixed_order::block;
    const std::size_t count = n - first < fixed_order::block ? n - first : fixed_order::block;
    V acc = fixed_order::zero<P, A>(R::identity());
    // Full: the block holds fixed_order::block values, none to skip.
    const auto block_adds = [&](auto full) {
        const auto in = [&](unsigned i) { return decltype(full)::value || i < count; };
        const unsigned mine = warp * staged_quarter + lane;  // this lane's first value of the block
        const auto row = src + (first + mine);               // one address, constant offsets from it
        W x[rows];
#pragma unroll
        for (unsigned u = 0; u < rows; ++u) x[u] = in(mine + 32 * u) ? W(r.lift(row[32 * u], first + mine + 32 * u)) : W{};
        if (warp != 0) {
#pragma unroll
            for (unsigned u = 0; u < rows; ++u)
                if (in(mine + 32 * u)) stage[mine - staged_quarter + 32 * u] = x[u];
            named_arrive(warp, 64);  // this quarter is in shared memory, for warp 0
            return;
        }
#pragma unroll
        for (unsigned u = 0; u < rows; ++u)
            if (in(lane + 32 * u)) fixed_order::add<P, A>(acc, x[u]);
        const unsigned warps = blockDim.x / 32;
#pragma unroll 1
        for (unsigned w = 1; w < warps; ++w) {
            named_sync(w, 64);
            const unsigned at = (w - 1) * staged_quarter + lane;
#pragma unroll
            for (unsigned u = 0; u < rows; ++u)
                if (in(at + staged_quarter + 32 * u)) x[u] = stage[at + 32 * u];
#pragma unroll
            for (unsigned u = 0; u < rows; ++u)
                if (in(at + staged_quarter + 32 * u)) fixed_order::add<P, A>(acc, x[u]);
        }
        acc = lane_tree<P, A>(acc);
    };
    if (count == fixed_order::block) block_adds(std::true_type{});
    else block_adds(std::false_type{});
    if (gridDim.x > 1 && counters == nullptr) {  // the block values alone
        if (threadIdx.x == 0) v[b] = acc;
        return;
    }
    // The block values are one group of the tree (gridDim.x <= fold_group<V>): its CTAs hand
    // their values on, and the last folds them, all in flight at once (v is the workspace's,
    // 16-byte aligned): up to four a thread straight from L2 into registers (the grids the
    // staged kernel is chosen for), more through shared memory, after the barrier in
    // hand_on, which warp 0, the stage's last reader, reaches after its adds. One block: its
    // value is the tree, finished here (no workspace: v and counters may be null).
    hand_on<P>(r, acc, v + b, gridDim.x, counters,
               [&] { return fold_last_round<P, A, staged_block_threads>(reinterpret_cast<V*>(raw), v, gridDim.x); },
               d_result);
}

} // namespace preduce::cuda::detail::fixed
