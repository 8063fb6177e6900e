#pragma once
// Tuning constants of the CUDA backend, apart from the kernels that use them.
// Each says what it trades and what it measured on an H200 (sm_90, 132 SMs, HBM3e;
// read probe 4.52 TB/s at 2^30 floats), bench/gpu/preduce_bench_gpu, medians of 5.
#include <cstddef>

namespace preduce::cuda::tuning {

// Threads per block of the tile kernels: 8 warps, so the block layer's final warp
// combines 8 partials and 4-8 blocks fit on one SM.
inline constexpr int block_threads = 256;

// Bytes each thread has in flight per tile: four 16-byte vector loads issued before
// the first use. A memory-bound reduction needs ~40 KB in flight per SM on HBM3e.
inline constexpr int vector_bytes = 16;
inline constexpr int vectors_per_thread = 4;

// Inputs the 16-byte tiles cannot serve (two arrays side by side, element types that are
// not a power-of-two fraction of 16 bytes) are read with coalesced scalar loads instead,
// this many elements per thread per tile, all issued before the first combine: 8 float
// pairs of a dot product are 16 loads, the same 64 bytes in flight as the vector tiles.
// f32 dot, both inputs counted: 4.33 TB/s at 2^28 and 4.31 at 2^30 (sum: 4.40, 4.52).
inline constexpr int scalars_per_thread = 8;

// Resident blocks per SM the grid is sized for (the occupancy calculator may lower it):
// the grid stays at one wave, so every partial is written once and the partial count
// (the finalize kernel's input) stays near 1000 whatever n is. Sweep at 2^28/2^30 f32 sum
// and max: 4, 8 and 16 all within 0.5% of each other and of CUB (PREDUCE_CUDA_BLOCKS_PER_SM).
inline constexpr int blocks_per_sm = 8;

// Up to this many elements, one block reduces everything and writes the result in a
// single launch (the second launch of the two-pass path costs more than it saves):
// 2^14 f32 sum 8.2 us single-block against CUB's two-pass 12.2 us.
inline constexpr std::size_t single_block_max_elements = std::size_t{1} << 15;

// The same for inputs the GPU reads over the host link (pinned host memory): each trip
// there takes microseconds, and one block keeps only 16 KiB in flight (256 threads x 64
// bytes), so past that many bytes the grid spreads the reads over the SMs instead.
inline constexpr std::size_t single_block_max_remote_bytes = std::size_t{16} << 10;

// Host-data path: bytes per pinned staging chunk; two chunks in flight on two streams.
// 2^24 f32 from pageable memory end to end: 2.0 ms (copying the whole input to the
// device first and then reducing it: 6.6 ms).
inline constexpr std::size_t staging_chunk_bytes = std::size_t{8} << 20;

// options::gpus != 1 on host data: below this many elements one GPU (the current one)
// reduces the whole input. A split costs a fixed ~70 us (hand-off to each GPU's thread,
// one synchronisation per GPU: reduce_parts of one 2^30 f32 part 1.037 ms against 0.965 ms
// for the plain call, on two H200s), while 2^20 f32 from pageable memory takes ~140 us on one
// GPU (29 GB/s at 2^30: 149 ms on one GPU, 105 ms on two). So below 2^20 a second GPU
// cannot pay for itself; the break-even above it is not measured.
inline constexpr std::size_t multi_gpu_min_elements = std::size_t{1} << 20;

} // namespace preduce::cuda::tuning
