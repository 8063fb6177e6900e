#pragma once
// precision::deterministic and precision::compensated on the GPU: the fixed order of
// preduce/detail/algorithm/fixed_order/order.hpp, bit for bit.
//
//  - fixed_blocks: the block values; CTAs take units of 8C blocks grid-stride, a warp C
//    blocks of a unit. With C = 1 lane j of the warp adds lift(x[b*4096 + j + 32k]) for k = 0, 1, ... in
//    increasing k (coalesced scalar loads, loads_in_flight per lane). With C > 1 (16-byte
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
//  - fixed_blocks_bulk (sm_90 and later, 16-byte aligned arrays): the one-lane form's blocks
//    and adds, its warps streaming their blocks through shared memory by bulk copies. Its
//    CTAs take aligned power-of-two shares of the blocks, whole subtrees of the block tree,
//    and fold them themselves, so its in-launch tree is one round over the shares' values.
//  - Up to a group of blocks, fixed_blocks_staged gives each block a CTA whose four warps
//    load a quarter of it each, all at once, into registers, while warp 0 adds the quarters
//    as they arrive (the same adds), then the tree's one round (its blocks are one group).
//    A single block (n <= 4096) is one CTA of as many warps as its values fill, which writes
//    the result itself: no workspace, no tree, no wave to look up.
//
// The kernels live in fixed_order/ (blocks.cuh, bulk.cuh, staged.cuh, and tree.cuh for the
// lane and block trees); this file picks the form for an input and launches it.
//
// The lane, lane-tree and block-tree arithmetic is fixed_order::add / fixed_order::merge / fixed_order::result
// themselves, which add with __fadd_rn/__dadd_rn in device code: never contracted into an
// FMA with the product a lift may compute, never reassociated.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "preduce/cuda/grid/fixed_order/blocks.cuh"
#include "preduce/cuda/grid/fixed_order/bulk.cuh"
#include "preduce/cuda/grid/fixed_order/staged.cuh"
#include "preduce/cuda/grid/fixed_order/tree.cuh"
#include "preduce/cuda/grid/launch.cuh"
#include "preduce/cuda/runtime/device_tuning.hpp"
#include "preduce/cuda/runtime/memory.hpp"
#include "preduce/cuda/tuning.hpp"
#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/precision.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda::detail::fixed {

// Blocks of fixed_blocks<P, R, C> in one full wave on the current device (as many per SM as fit).
template <precision P, class R, int C>
int wave() {
    static wave_cache cache{};
    return one_wave(cache, fixed_blocks<P, R, C>, block_threads, std::numeric_limits<int>::max());
}

// CTAs of fixed_blocks_staged<P, R> in one full wave on the current device.
template <precision P, class R>
std::size_t staged_wave() {
    static wave_cache cache{};
    return static_cast<std::size_t>(
        one_wave(cache, fixed_blocks_staged<P, R>, staged_block_threads, std::numeric_limits<int>::max()));
}

// Whether fixed_blocks_staged can read m blocks: its blocks' values are one group of the
// tree (fold_group<V>), which its last CTA folds.
template <precision P, class R>
constexpr bool staged_holds(std::size_t m) {
    return m <= fold_group<fixed_order::value_t<P, typename R::accumulator_type>>;
}

// Launches fixed_blocks_staged over src[0, n) (m blocks): a single block in one CTA of
// staged_threads (values and counters unused, may be null), more in CTAs of
// staged_block_threads (values 16-byte aligned). It launches nothing where
// !staged_holds<P, R>(m), nor, with one_wave_only, where its m CTAs do not fit one wave.
// Returns whether it launched.
template <precision P, class R>
bool launch_staged(const R& r, source_t<R> src, std::size_t n, std::size_t m,
                   fixed_order::value_t<P, typename R::accumulator_type>* values, typename R::result_type* d_result,
                   unsigned* counters, cudaStream_t stream, bool one_wave_only) {
    if (!staged_holds<P, R>(m)) return false;
    if (one_wave_only && m > 1 && m > staged_wave<P, R>()) return false;
    const unsigned threads = m == 1 ? staged_threads(n) : static_cast<unsigned>(staged_block_threads);
    launch("fixed_blocks_staged launch", fixed_blocks_staged<P, R>, static_cast<unsigned>(m), threads, stream, r, src,
           n, values, d_result, counters);
    return true;
}

// The form of the block pass: fixed_blocks' one-lane or vector form, fixed_blocks_bulk, or
// fixed_blocks_staged. choose lets the input decide (enqueue_reduce, lanes_for, bulk_ctas);
// the others force one, for tests and benchmarks, where it can run (else the one-lane form;
// staged runs where its blocks are one group of the tree). Every form gives the same values.
enum class block_pass { choose, one_lane, vector, bulk, staged };

// Which form of fixed_blocks reads src[0, n) on a device of tuning t: the C-lane vector form
// (C = vector_lanes<R>) when every array is aligned to its vectors and there are at least
// t.vector_units_per_warp units of C blocks for every warp of a wave (with fewer, the
// one-lane form keeps more loads in flight); else 1.
template <precision P, class R>
int lanes_for(source_t<R> src, std::size_t n, block_pass form, const tuning::table& t) {
    constexpr int C = vector_lanes<R>();
    if (C == 1 || form == block_pass::one_lane || !runs_aligned<C>(src)) return 1;
    if (form == block_pass::vector) return C;
    const std::size_t units = n / fixed_order::block / C;
    return units >= static_cast<std::size_t>(wave<P, R, C>()) * warps_per_cta * t.vector_units_per_warp ? C : 1;
}

// CTAs of a fixed_blocks_bulk wave over src (bulk_wave) on `device` (the current one), 0
// where it does not read src. It reads it chosen or asked for, where R's arrays stream in its
// chunks (bulk_shape_v), each is 16-byte aligned (what a bulk copy needs), and the device
// runs it.
template <precision P, class R>
int bulk_ctas(source_t<R> src, block_pass form, const void* kernel, int device) {
    if constexpr (!bulk_shape_v<R>) {
        return 0;
    } else {
        if (form != block_pass::bulk && form != block_pass::choose) return 0;
        const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
        if constexpr (std::is_pointer_v<source_t<R>>) {
            if (!aligned(src)) return 0;
        } else {
            if (!aligned(src.first) || !aligned(src.second)) return 0;
        }
        return bulk_wave(kernel, bulk_shared_bytes<R>, device);
    }
}

// CTAs of fixed_blocks<P, R, C> for m block values on a device of tuning t: `grid` when
// positive, else a unit for every warp, one wave at most. A unit is a long trip for one warp
// (a block, 16 KiB, or C of them), and a CTA's warps take its share of units in turn, so
// when a wave's shares leave a last round to fewer than t.last_round_min_warps of the warps,
// that round runs with too few loads in flight to keep the memory busy; then as few CTAs as
// give every warp the same number of units. The values do not depend on the grid.
template <precision P, class R, int C>
unsigned blocks_grid(std::size_t m, int grid, const tuning::table& t) {
    if (grid > 0) return static_cast<unsigned>(grid);
    const std::size_t units = (m + C - 1) / C;
    const std::size_t wave_ctas = static_cast<std::size_t>(wave<P, R, C>());
    if (units <= wave_ctas * warps_per_cta) return static_cast<unsigned>((units + warps_per_cta - 1) / warps_per_cta);
    const std::size_t share = (units + wave_ctas - 1) / wave_ctas;
    const std::size_t last = share % warps_per_cta;  // warps of a CTA with a round more than the rest
    if (last != 0 && last < t.last_round_min_warps) {
        const std::size_t per_cta = (share + warps_per_cta - 1) / warps_per_cta * warps_per_cta;
        return static_cast<unsigned>((units + per_cta - 1) / per_cta);
    }
    return static_cast<unsigned>(wave_ctas);
}

// Launches fixed_blocks over src[0, n) in the form lanes_for picks (counters: see
// fixed_blocks; nullptr for the block values alone). device: the current device, -1 where
// the caller has not asked (then asked here, once).
template <precision P, class R>
void launch_blocks(const R& r, source_t<R> src, std::size_t n, std::size_t base,
                   fixed_order::value_t<P, typename R::accumulator_type>* v, typename R::result_type* d_result,
                   unsigned* counters, cudaStream_t stream, int grid, block_pass form, int device = -1) {
    constexpr int C = vector_lanes<R>();
    const std::size_t m = fixed_order::block_count(n);
    if (device < 0) device = current_device();
    if constexpr (bulk_shape_v<R>) {
        const auto kernel = fixed_blocks_bulk<P, R>;  // this translation unit's stub: bulk_wave opts it in
        const auto wave =
            static_cast<std::size_t>(bulk_ctas<P, R>(src, form, reinterpret_cast<const void*>(kernel), device));
        if (wave > 0) {
            // A CTA per SM (its warps' stages fill most of the shared memory), a share of the
            // blocks each: as many as the shares of a wave (bulk_share) fill.
            const std::size_t share = bulk_share(m, wave);
            const unsigned ctas = grid > 0 ? static_cast<unsigned>(grid) : static_cast<unsigned>((m + share - 1) / share);
            launch_shared("fixed_blocks_bulk launch", kernel, ctas, block_threads, bulk_shared_bytes<R>,
                          stream, r, src, n, base, v, d_result, counters);
            return;
        }
    }
    const tuning::table& t = tuning::for_device(device);
    if constexpr (C > 1) {
        if (lanes_for<P, R>(src, n, form, t) == C) {
            launch("fixed_blocks launch", fixed_blocks<P, R, C>, blocks_grid<P, R, C>(m, grid, t), block_threads, stream,
                   r, src, n, base, v, d_result, counters);
            return;
        }
    }
    launch("fixed_blocks launch", fixed_blocks<P, R, 1>, blocks_grid<P, R, 1>(m, grid, t), block_threads, stream, r,
           src, n, base, v, d_result, counters);
}

// Enqueues the block values of src[0, n) into v (global indices base + i). grid: blocks of
// the launch, 0 for one wave (blocks_grid).
template <precision P, class R>
void enqueue_blocks(const R& r, source_t<R> src, std::size_t n, std::size_t base,
                    fixed_order::value_t<P, typename R::accumulator_type>* v, cudaStream_t stream, int grid = 0) {
    if (fixed_order::block_count(n) == 0) return;
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
void enqueue_tree(const R& r, fixed_order::value_t<P, typename R::accumulator_type>* v, std::size_t m,
                  fixed_order::value_t<P, typename R::accumulator_type>* scratch, typename R::result_type* d_result,
                  cudaStream_t stream) {
    using V = fixed_order::value_t<P, typename R::accumulator_type>;
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
void enqueue_groups(const R& r, const fixed_order::value_t<P, typename R::accumulator_type>* v, std::size_t m,
                    fixed_order::value_t<P, typename R::accumulator_type>* out, cudaStream_t stream) {
    using V = fixed_order::value_t<P, typename R::accumulator_type>;
    if (m == 0) return;
    const std::size_t groups = (m + tree_group<V> - 1) / tree_group<V>;
    launch("fixed_tree (groups) launch", fixed_tree<P, R>, static_cast<unsigned>(groups), tree_threads, stream, r, v, m,
           out, static_cast<typename R::result_type*>(nullptr));
}

// Whether the bulk pass (bulk CTAs a wave, 0 where it does not run) reads m blocks of src
// faster than the staged kernel on a device of tuning t: past t.staged_blocks_per_bulk_cta
// blocks for each of its CTAs (one an SM). Up to there the staged kernel's blocks are in
// flight whole and its block values come sooner; past there the bulk CTAs fold their shares
// of the tree themselves, where the staged kernel's CTAs each count on one counter and its
// last CTA folds a value for every block.
inline bool bulk_beats_staged(std::size_t m, std::size_t bulk, const tuning::table& t) {
    return bulk != 0 && m > t.staged_blocks_per_bulk_cta * bulk;
}

// The whole fixed-order reduction of device-accessible src[0, n) (n >= 1) into *d_result
// (any memory the GPU can write): fixed_blocks_staged while the blocks fit one wave of its
// CTAs and the bulk pass, where it runs, does not read them faster (bulk_beats_staged), else
// the block pass (launch_blocks) with the block tree in the same launch, or for more than
// in_launch_max<V>() blocks the block values and then the tree's launches. grid > 0: the
// block pass with that many CTAs; form: its form (block_pass). Neither changes the values.
template <precision P, class R>
void enqueue_reduce(const R& r, source_t<R> src, std::size_t n, typename R::result_type* d_result,
                    cudaStream_t stream, int grid = 0, block_pass form = block_pass::choose) {
    using V = fixed_order::value_t<P, typename R::accumulator_type>;
    const std::size_t m = fixed_order::block_count(n);
    if (m == 1 && grid <= 0 && (form == block_pass::choose || form == block_pass::staged)) {
        // One block: its CTA finishes the result itself, so no workspace and no wave to look
        // up (the latency of small calls).
        launch_staged<P>(r, src, n, m, static_cast<V*>(nullptr), d_result, nullptr, stream, false);
        return;
    }
    const bool one_launch = m <= in_launch_max<V>();
    const std::size_t bytes = (m + (one_launch ? 0 : tree_scratch<V>(m))) * sizeof(V);
    const int device = current_device();  // asked once for the workspace and the bulk pass's wave
    const counted_workspace ws = counted_workspace_for(bytes, stream, nullptr, true, device);
    V* values = static_cast<V*>(ws.values);
    if (!one_launch) {
        launch_blocks<P>(r, src, n, 0, values, static_cast<typename R::result_type*>(nullptr), nullptr, stream, grid,
                         form, device);
        enqueue_tree<P>(r, values, m, values + m, d_result, stream);
        return;
    }
    if (grid <= 0 && form == block_pass::staged && launch_staged<P>(r, src, n, m, values, d_result, ws.done, stream, false))
        return;
    if (grid <= 0 && form == block_pass::choose) {
        // The staged kernel while its CTAs fit one wave, unless the bulk pass runs and reads
        // the blocks faster (bulk_beats_staged). Where the bulk pass runs, the staged kernel's
        // CTAs (staged_blocks_per_bulk_cta for each bulk CTA, one an SM) are taken to fit a
        // wave without a lookup: the staged kernel keeps at least that many CTAs an SM.
        // Were they more, the launch would only take more than a wave, with the same values.
        std::size_t bulk = 0;
        if constexpr (bulk_shape_v<R>) {
            const auto kernel = fixed_blocks_bulk<P, R>;
            bulk = static_cast<std::size_t>(bulk_ctas<P, R>(src, form, reinterpret_cast<const void*>(kernel), device));
        }
        if (!bulk_beats_staged(m, bulk, tuning::for_device(device)) &&
            launch_staged<P>(r, src, n, m, values, d_result, ws.done, stream, bulk == 0))
            return;
    }
    launch_blocks<P>(r, src, n, 0, values, d_result, ws.done, stream, grid, form, device);
}

} // namespace preduce::cuda::detail::fixed
