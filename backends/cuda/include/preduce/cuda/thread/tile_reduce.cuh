#pragma once
// Thread layer, vector tiles: what one thread folds before the block layer, for a single
// array of a commutative reducer (thread_fold.cuh picks the layer). The input is split as
//   [head: scalars up to the first 16-byte boundary][body: 16-byte vectors][tail: scalars]
// so that the body, nearly all the data, is read with 16-byte loads whatever the
// alignment of the caller's pointer. The body is cut into tiles of block_threads x
// vectors_per_thread vectors; tile t of a grid of G blocks goes to block t % G (grid
// stride: the blocks running at one time read neighbouring memory). Inside a tile, vector
// k of thread i is vector k * block_threads + i (striped: a warp's loads are coalesced)
// and all of a thread's loads are issued before the first combine.
#include <cstddef>
#include <cstdint>

#include "preduce/cuda/thread/thread_state.cuh"
#include "preduce/cuda/tuning.hpp"

namespace preduce::cuda::detail {

template <class T>
struct alignas(tuning::vector_bytes) vector_of {
    static constexpr int size = tuning::vector_bytes / static_cast<int>(sizeof(T));
    T e[size];
};

// Where the 16-byte aligned body starts and how many vectors it holds.
template <class T>
struct split {
    std::size_t head;     // scalar elements before the body
    std::size_t vectors;  // body length in vectors
    std::size_t tail;     // scalar elements after the body (index head + vectors * V ...)

    __host__ __device__ static split of(const T* data, std::size_t n) {
        constexpr std::size_t V = vector_of<T>::size;
        const std::size_t misalign = reinterpret_cast<std::uintptr_t>(data) % tuning::vector_bytes;
        std::size_t head = misalign == 0 ? 0 : (tuning::vector_bytes - misalign) / sizeof(T);
        if (head > n) head = n;
        const std::size_t vectors = (n - head) / V;
        return {head, vectors, n - head - vectors * V};
    }
};

template <int BlockThreads>
struct tiles {
    static constexpr int vectors_per_tile = BlockThreads * tuning::vectors_per_thread;
};

// Folds this thread's share of [data, data + n) into st; `base` is the global index of
// data[0] (non-zero when the host path reduces a chunk of a larger input).
template <int BlockThreads, class R>
__device__ __forceinline__ void vector_fold(const R& r, const typename R::value_type* __restrict__ data,
                                            std::size_t n, std::size_t base, thread_state<R>& st, grid_slot g) {
    using T = typename R::value_type;
    using Vec = vector_of<T>;
    constexpr int V = Vec::size;
    constexpr int VPT = tuning::vectors_per_thread;
    constexpr std::size_t tile_vectors = tiles<BlockThreads>::vectors_per_tile;

    const split<T> s = split<T>::of(data, n);
    const Vec* __restrict__ body = reinterpret_cast<const Vec*>(data + s.head);
    const std::size_t full_tiles = s.vectors / tile_vectors;
    const std::size_t tid = threadIdx.x;

    for (std::size_t t = g.block; t < full_tiles; t += g.blocks) {
        const std::size_t first = t * tile_vectors + tid;
        Vec v[VPT];
#pragma unroll
        for (int k = 0; k < VPT; ++k) v[k] = body[first + static_cast<std::size_t>(k) * BlockThreads];
#pragma unroll
        for (int k = 0; k < VPT; ++k) {
            const std::size_t index = base + s.head + (first + static_cast<std::size_t>(k) * BlockThreads) * V;
#pragma unroll
            for (int e = 0; e < V; ++e) st.add(r, v[k].e[e], index + e);
        }
        if (st.tile_overflowed()) {  // rare (see thread_state): the tile again, element by element
            st.redo_tile();
            for (int k = 0; k < VPT; ++k) {
                const std::size_t index = base + s.head + (first + static_cast<std::size_t>(k) * BlockThreads) * V;
                for (int e = 0; e < V; ++e) st.add_one(r, v[k].e[e], index + e);
            }
        }
        st.end_tile();
    }

    // The partial last tile, the head and the tail: one block, bounds-checked, scalar-
    // vector loads. At most a tile plus 2 * V elements, so it is never the bottleneck, and
    // they take add_one, which needs no per-tile check.
    if (g.block == full_tiles % g.blocks) {
        for (std::size_t q = full_tiles * tile_vectors + tid; q < s.vectors; q += BlockThreads) {
            const Vec v = body[q];
            const std::size_t index = base + s.head + q * V;
#pragma unroll
            for (int e = 0; e < V; ++e) st.add_one(r, v.e[e], index + e);
        }
    }
    if (g.block == 0) {
        if (tid < s.head) st.add_one(r, data[tid], base + tid);
        const std::size_t tail_start = s.head + s.vectors * V;
        if (tid < s.tail) st.add_one(r, data[tail_start + tid], base + tail_start + tid);
    }
}

} // namespace preduce::cuda::detail
