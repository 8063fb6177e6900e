#pragma once
// Runs of equal keys in one pass over keys and values (preduce::cuda::reduce_by_key).
//
// Tile t is one block's threads x items consecutive pairs. The block flags each run's head
// (the key differs, by operator==, from the key before it), and learns how many runs start
// before the tile from a decoupled look-back over the tiles' head counts (CUB's
// ScanTileState). Those counts are integers, so every run lands in the same place whatever
// order the look-back meets the tiles in.
//
// A run that starts and ends inside a tile is reduced and written by the tile. A run that
// crosses tile boundaries leaves pieces: the tile where it starts keeps the accumulator from
// the head to its end (open), each later tile keeps its elements before its first head
// (prefix; all of them when it has no head). join_runs then combines each run's pieces
// from left to right. Every piece's extent follows from the tile shape alone, so a result's
// bits depend only on the data and the tile shape, never on scheduling: the same from call
// to call, unlike a look-back that carries the values too.
//
// Elements are lifted with their global index; a result that carries an index (argmin,
// argmax) is written with it counted from its run's head, through the reducer's resume.
#include <cuda/std/functional>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>

#include "preduce/cuda/grid/kernels.cuh"
#include "preduce/cuda/tuning.hpp"
#include "preduce/cuda/warp/warp_reduce.cuh"

namespace preduce::cuda::detail::by_key {

using count_state = cub::ScanTileState<unsigned long long>;

// What a tile leaves for join_runs and the host.
template <class A>
struct tile_pieces {
    std::uint8_t* status;          // has_head | has_prefix
    A* prefix;                     // elements before the first head (has_prefix)
    A* open;                       // the last run from its head to the tile's end (has_head)
    std::uint64_t* open_head;      // that run's first element
    std::uint64_t* open_rank;      // and its place among the runs
    unsigned long long* runs;      // the number of runs, written by the last tile (host-mapped)
};
inline constexpr std::uint8_t has_head = 1, has_prefix = 2;

// Results that carry an index (argmin/argmax): counted from the run's head when written.
template <class R>
inline constexpr bool indexed_v = requires(const typename R::result_type& x) { x.index; };

// A stretch of consecutive elements as the block scan carries it: the heads in it, the
// accumulation since the last head (of all, when there is none) and, for indexed results,
// that head's index.
template <class A, bool Indexed>
struct stretch {
    unsigned heads;
    A acc;
    std::uint64_t head;
    __device__ __forceinline__ void set_head(std::uint64_t i) { head = i; }
    __device__ __forceinline__ std::uint64_t last_head() const { return head; }
};
template <class A>
struct stretch<A, false> {
    unsigned heads;
    A acc;
    __device__ __forceinline__ void set_head(std::uint64_t) {}
    __device__ __forceinline__ std::uint64_t last_head() const { return 0; }
};

template <class R>
struct join_stretches {
    using S = stretch<typename R::accumulator_type, indexed_v<R>>;
    __device__ __forceinline__ S operator()(const S& a, const S& b) const {
        S s = b.heads != 0 ? b : a;
        s.heads = a.heads + b.heads;
        if (b.heads == 0) s.acc = R::combine(a.acc, b.acc);
        return s;
    }
};

// The result of a run whose accumulator counted indices globally, with them counted from
// the run's head.
template <class R>
__device__ __forceinline__ typename R::result_type run_result(const R& r, const typename R::accumulator_type& acc,
                                                             std::uint64_t head) {
    if constexpr (indexed_v<R>) return r.finish(r.resume(r.finish(acc), std::uint64_t{0} - head));
    else return r.finish(acc);
}

__global__ void init_counts(count_state counts, int tiles) { counts.InitializeStatus(tiles); }

// One tile per block (the look-back needs blockIdx.x to be the tile). With Values, the runs'
// keys and results (or their open pieces); without, the runs' keys and heads (heads_out,
// then n: offsets for the fixed orders' segments). Both arrays are loaded before either is
// exchanged into each thread's consecutive elements, and the runs are gathered in shared
// memory and written out coalesced.
template <int Threads, int Items, bool Values, class K, class R>
__global__ void __launch_bounds__(Threads, tuning::by_key_blocks_per_sm)
    reduce_tiles(R r, const K* __restrict__ keys, const typename R::value_type* __restrict__ values, std::uint64_t n,
                 K* __restrict__ keys_out, typename R::result_type* __restrict__ values_out,
                 std::uint64_t* __restrict__ heads_out, tile_pieces<typename R::accumulator_type> pieces,
                 count_state counts) {
    using A = typename R::accumulator_type;
    using T = typename R::value_type;
    using Out = std::conditional_t<Values, typename R::result_type, std::uint64_t>;  // a run's result, or its head
    constexpr int tile_size = Threads * Items;
    using exchange_keys = cub::BlockExchange<K, Threads, Items>;
    using exchange_values = cub::BlockExchange<T, Threads, Items>;
    using flag_heads = cub::BlockDiscontinuity<K, Threads>;
    using S = stretch<A, indexed_v<R>>;
    using scan = cub::BlockScan<S, Threads>;
    using look_back = cub::TilePrefixCallbackOp<unsigned long long, ::cuda::std::plus<unsigned long long>, count_state>;
    struct gathered {
        K keys[tile_size];
        Out out[tile_size];
    };
    __shared__ union {
        typename exchange_keys::TempStorage keys;
        typename exchange_values::TempStorage values;
        typename flag_heads::TempStorage flags;
        typename scan::TempStorage scan;
        typename look_back::TempStorage look_back;
        gathered runs;
    } smem;
    __shared__ unsigned long long runs_before;

    const int tile = static_cast<int>(blockIdx.x);
    const std::uint64_t begin = static_cast<std::uint64_t>(tile) * tile_size;
    const int valid = n - begin < static_cast<std::uint64_t>(tile_size) ? static_cast<int>(n - begin) : tile_size;
    const int mine = static_cast<int>(threadIdx.x) * Items;  // my first element's place in the tile

    K k[Items];
    T x[Items];
    if (valid == tile_size) {
        cub::LoadDirectWarpStriped(threadIdx.x, keys + begin, k);
        if constexpr (Values) cub::LoadDirectWarpStriped(threadIdx.x, values + begin, x);
    } else {
        cub::LoadDirectWarpStriped(threadIdx.x, keys + begin, k, valid, keys[begin]);  // past the end: a real key
        if constexpr (Values) cub::LoadDirectWarpStriped(threadIdx.x, values + begin, x, valid, values[begin]);
    }
    exchange_keys(smem.keys).WarpStripedToBlocked(k);
    if constexpr (Values) {
        __syncthreads();
        exchange_values(smem.values).WarpStripedToBlocked(x);
    }
    __syncthreads();
    int head[Items];
    const auto differ = [](const K& a, const K& b) { return !(a == b); };
    if (tile == 0) flag_heads(smem.flags).FlagHeads(head, k, differ);
    else flag_heads(smem.flags).FlagHeads(head, k, differ, keys[begin - 1]);
#pragma unroll
    for (int i = 0; i < Items; ++i)
        if (mine + i >= valid) head[i] = 0;  // past the end

    // My stretch, then the stretches before mine in the tile and the tile's own.
    S own{0, R::identity()};
#pragma unroll
    for (int i = 0; i < Items; ++i) {
        const std::uint64_t at = begin + mine + i;
        if (head[i]) {
            ++own.heads;
            own.set_head(at);
            if constexpr (Values) own.acc = r.lift(x[i], at);
        } else if constexpr (Values) {
            if (mine + i < valid) own.acc = R::combine(own.acc, r.lift(x[i], at));
        }
    }
    __syncthreads();
    S before, whole;
    scan(smem.scan).ExclusiveScan(own, before, S{0, R::identity()}, join_stretches<R>{}, whole);
    __syncthreads();
    if (threadIdx.x < 32) {  // the first warp: the runs that start before this tile
        unsigned long long prior = 0;
        if (tile == 0) {
            if (threadIdx.x == 0) counts.SetInclusive(0, whole.heads);
        } else {
            look_back op(counts, smem.look_back, ::cuda::std::plus<unsigned long long>{}, tile);
            prior = op(whole.heads);
        }
        if (threadIdx.x == 0) runs_before = prior;
    }
    __syncthreads();
    const std::uint64_t first_rank = runs_before;
    if (threadIdx.x == 0) {
        if (begin + valid == n) {  // the last tile
            *pieces.runs = first_rank + whole.heads;
            if constexpr (!Values) heads_out[first_rank + whole.heads] = n;  // the end of the last run
        }
        if constexpr (Values) pieces.status[tile] = (whole.heads != 0 ? has_head : 0) | (head[0] ? 0 : has_prefix);
    }

    // My elements again: each head closes the run before it and opens its own. The tile's
    // runs are gathered by their place in the tile; its last run stays open (its pieces).
    S cur = before;  // cur.heads: the tile's heads so far
#pragma unroll
    for (int i = 0; i < Items; ++i) {
        const std::uint64_t at = begin + mine + i;
        if (head[i]) {
            if constexpr (Values) {
                if (cur.heads != 0) smem.runs.out[cur.heads - 1] = run_result(r, cur.acc, cur.last_head());
                else if (at != begin) store_whole(pieces.prefix + tile, cur.acc);
            } else {
                smem.runs.out[cur.heads] = at;
            }
            smem.runs.keys[cur.heads] = k[i];
            ++cur.heads;
            cur.set_head(at);
            if constexpr (Values) cur.acc = r.lift(x[i], at);
        } else if constexpr (Values) {
            if (mine + i < valid) cur.acc = R::combine(cur.acc, r.lift(x[i], at));
        }
    }
    if constexpr (Values) {
        if (mine < valid && valid <= mine + Items) {  // I hold the tile's last element: its run is open
            if (cur.heads != 0) {
                store_whole(pieces.open + tile, cur.acc);
                pieces.open_head[tile] = cur.last_head();
                pieces.open_rank[tile] = first_rank + cur.heads - 1;
            } else {
                store_whole(pieces.prefix + tile, cur.acc);
            }
        }
    }
    __syncthreads();
    const unsigned closed = Values && whole.heads != 0 ? whole.heads - 1 : whole.heads;
    for (unsigned j = threadIdx.x; j < whole.heads; j += Threads) {
        keys_out[first_rank + j] = smem.runs.keys[j];
        if (j < closed) {
            if constexpr (Values) store_whole(values_out + (first_rank + j), smem.runs.out[j]);
            else heads_out[first_rank + j] = smem.runs.out[j];
        }
    }
}

// Warp w: the open run of tile w, joined with the prefixes of the tiles after it up to
// and including the first that has a head (or the last tile), in tile order. A warp looks
// at 32 tiles a step; the pieces of each step are combined by the lane-ordered shuffle tree,
// and the steps in order.
template <class R>
__global__ void join_runs(R r, int tiles, tile_pieces<typename R::accumulator_type> pieces,
                          typename R::result_type* __restrict__ values_out) {
    using A = typename R::accumulator_type;
    const unsigned lane = threadIdx.x % 32;
    const long long s = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    if (s >= tiles || !(pieces.status[s] & has_head)) return;  // uniform in the warp
    A acc = pieces.open[s];
    for (long long first = s + 1; first < tiles; first += 32) {
        const long long t = first + lane;
        const std::uint8_t st = t < tiles ? pieces.status[t] : 0;
        // The run ends before the first tile without a prefix, or in the first tile with a head.
        const unsigned no_prefix = __ballot_sync(0xffffffffu, !(st & has_prefix));
        const unsigned with_head = __ballot_sync(0xffffffffu, (st & has_head) != 0);
        const unsigned stop_before = no_prefix != 0 ? __ffs(no_prefix) - 1 : 32;
        const unsigned stop_in = with_head != 0 ? __ffs(with_head) - 1 : 32;
        const unsigned last = stop_in < stop_before ? stop_in + 1 : stop_before;  // pieces this step: lanes [0, last)
        A piece = lane < last ? pieces.prefix[t] : R::identity();
        if (last > 0) acc = R::combine(acc, warp_reduce<R, 32>(piece));  // lane 0's is the one kept
        if (last < 32) break;
    }
    if (lane == 0) store_whole(values_out + pieces.open_rank[s], run_result(r, acc, pieces.open_head[s]));
}

} // namespace preduce::cuda::detail::by_key
