#pragma once
// Thread layer: what one thread folds before the block layer, by the shape of the input
// and what the reducer allows.
//   commutative, one array of 1/2/4/8/16-byte elements -> 16-byte vector tiles (tile_reduce.cuh)
//   commutative, anything else (zip sources, odd types)  -> coalesced scalar tiles (striped_fold.cuh)
//   not commutative                                       -> contiguous runs in order (ordered_fold.cuh)
#include <cstddef>
#include <type_traits>

#include "preduce/cuda/thread/ordered_fold.cuh"
#include "preduce/cuda/thread/striped_fold.cuh"
#include "preduce/cuda/thread/thread_state.cuh"
#include "preduce/cuda/thread/tile_reduce.cuh"
#include "preduce/cuda/tuning.hpp"
#include "preduce/reducers.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda::detail {

// sizeof == alignof: a pointer aligned for T is then a whole number of elements away from
// the next 16-byte boundary, which the vector split relies on (a 16-byte struct of floats
// may sit 4 bytes off it).
template <class R>
inline constexpr bool vector_tiles_v = is_commutative_v<R> && std::is_pointer_v<source_t<R>> &&
                                       sizeof(typename R::value_type) == alignof(typename R::value_type) &&
                                       tuning::vector_bytes % sizeof(typename R::value_type) == 0;

// Elements one block's tile covers: the grid is sized to the tiles an input has.
template <int BlockThreads, class R>
constexpr std::size_t tile_elements() {
    if constexpr (vector_tiles_v<R>)
        return static_cast<std::size_t>(tiles<BlockThreads>::vectors_per_tile) * vector_of<typename R::value_type>::size;
    else
        return static_cast<std::size_t>(BlockThreads) * tuning::scalars_per_thread;
}

template <int BlockThreads, class R>
__device__ __forceinline__ typename R::accumulator_type thread_fold(const R& r, source_t<R> src, std::size_t n,
                                                                  std::size_t base, grid_slot g = this_grid()) {
    if constexpr (!is_commutative_v<R>) {
        return ordered_fold<BlockThreads>(r, src, n, base, g);
    } else {
        thread_state<R> st(src, n);
        if constexpr (vector_tiles_v<R>) vector_fold<BlockThreads>(r, src, n, base, st, g);
        else striped_fold<BlockThreads>(r, src, n, base, st, g);
        return st.result();
    }
}

} // namespace preduce::cuda::detail
