#pragma once
// Tuning constants of the CUDA backend, apart from the kernels that use them.
// Each says what it trades; numbers measured on the H200 (sm_90, 132 SMs) are in
// bench/README.md and the closing notes of the CUDA issue.
#include <cstddef>

namespace preduce::cuda::tuning {

// Threads per block of the tile kernels: 8 warps, so the block layer's final warp
// combines 8 partials and 4-8 blocks fit on one SM.
inline constexpr int block_threads = 256;

// Bytes each thread has in flight per tile: four 16-byte vector loads issued before
// the first use. A memory-bound reduction needs ~40 KB in flight per SM on HBM3e.
inline constexpr int vector_bytes = 16;
inline constexpr int vectors_per_thread = 4;

// Resident blocks per SM the grid is sized for (the occupancy calculator may lower it):
// the grid stays at one wave, so every partial is written once and the partial count
// (the finalize kernel's input) stays near 1000 whatever n is.
inline constexpr int blocks_per_sm = 8;

// Up to this many elements, one block reduces everything and writes the result in a
// single launch (the second launch of the two-pass path costs more than it saves).
inline constexpr std::size_t single_block_max_elements = std::size_t{1} << 15;

// Host-data path: bytes per pinned staging chunk; two chunks in flight on two streams.
inline constexpr std::size_t staging_chunk_bytes = std::size_t{8} << 20;

} // namespace preduce::cuda::tuning
