#pragma once
// Thread layer, scalar tiles: for commutative reducers over inputs the 16-byte vector
// tiles cannot read, two arrays side by side (zip sources: the two arrays may be
// misaligned differently, so no common vector boundary exists) and element types that do
// not divide 16 bytes. Tiles of block_threads x scalars_per_thread elements go to blocks
// grid-stride as in tile_reduce.cuh; element k of thread i is element k * block_threads + i
// of the tile, so each of a warp's loads (one per array) is coalesced, and a thread issues
// all of its loads before the first combine.
#include <cstddef>

#include "preduce/cuda/thread/thread_state.cuh"
#include "preduce/cuda/tuning.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda::detail {

template <int BlockThreads, class R>
__device__ __forceinline__ void striped_fold(const R& r, source_t<R> src, std::size_t n, std::size_t base,
                                             thread_state<R>& st, grid_slot g) {
    using V = typename R::value_type;
    constexpr int K = tuning::scalars_per_thread;
    constexpr std::size_t tile = static_cast<std::size_t>(BlockThreads) * K;
    const std::size_t full_tiles = n / tile;
    const std::size_t tid = threadIdx.x;

    for (std::size_t t = g.block; t < full_tiles; t += g.blocks) {
        const std::size_t first = t * tile + tid;
        V v[K];
#pragma unroll
        for (int k = 0; k < K; ++k) v[k] = src[first + static_cast<std::size_t>(k) * BlockThreads];
#pragma unroll
        for (int k = 0; k < K; ++k) st.add(r, v[k], base + first + static_cast<std::size_t>(k) * BlockThreads);
        if (st.tile_overflowed()) {  // rare (see thread_state): the tile again, element by element
            st.redo_tile();
            for (int k = 0; k < K; ++k) st.add_one(r, v[k], base + first + static_cast<std::size_t>(k) * BlockThreads);
        }
        st.end_tile();
    }
    // The partial last tile: one block, bounds-checked.
    if (g.block == full_tiles % g.blocks)
        for (std::size_t i = full_tiles * tile + tid; i < n; i += BlockThreads) st.add_one(r, src[i], base + i);
}

} // namespace preduce::cuda::detail
