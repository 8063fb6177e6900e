#pragma once
// The CUDA backend's tuning: every block size, occupancy target, load count, threshold and
// chunk length that sets how fast a reduction runs, never what it returns. After CUB's
// per-architecture policies (cub/device/dispatch/tuning/tuning_reduce.cuh), in two parts:
//
//  - Compile-time values (first part): kernel template arguments, __launch_bounds__,
//    static shared-memory sizes and register arrays. Host code launches the kernels with
//    the same values, and one host binary carries the kernels of every architecture the
//    build targets (CMAKE_CUDA_ARCHITECTURES), so each is one value for all of them. Another
//    value for one architecture would need a kernel instance of its own, chosen at run time.
//  - Run-time values (struct table, second part): what the host reads when it sizes a
//    launch (grids, thresholds, chunk lengths), one entry per measured architecture.
//    for_device() (runtime/device_tuning.hpp) is the one place that picks a device's entry,
//    by pick() below; an architecture without an entry gets the nearest one.
//
// Only sm_90 has been measured (H100 and H200), so it is the one entry. Every entry is
// correct on every GPU (fits_kernels() holds for each, checked below); another entry only
// changes the speed. Beside each value, the evidence: the card, the size and what was timed
// (bench/gpu/preduce_bench_gpu unless it says otherwise). docs/cuda-tuning.md describes the
// table, docs/fixed-order-gpu.md the fixed order's studies. This header is plain C++.
#include <cstddef>
#include <cstdint>

namespace preduce::cuda::tuning {

// ---- Compile-time, for every architecture this build targets -----------------------------

// The fast order's tile kernels (grid/kernels.cuh, thread/, block/).
// Threads per block: 8 warps, so the block layer's last warp combines 8 partials and up to
// 8 blocks fit on one SM.
inline constexpr int block_threads = 256;
// Bytes of one vector load (the widest load a thread issues), and the vectors a thread
// issues per tile before its first combine: 64 bytes a thread in flight. A memory-bound
// reduction needs about 40 KB in flight per SM on HBM3e.
inline constexpr int vector_bytes = 16;
inline constexpr int vectors_per_thread = 4;
// Coalesced scalar loads per thread per tile, all issued before the first combine, for the
// inputs the vector tiles cannot serve (two arrays side by side, elements that do not
// divide 16 bytes): 8 float pairs of a dot are 16 loads, the vector tiles' 64 bytes.
// H200, f32 dot (both arrays counted): 4.33 TB/s at 2^28, 4.31 at 2^30 (sum: 4.40, 4.52).
inline constexpr int scalars_per_thread = 8;

// Segments (grid/segmented_kernels.cuh).
// Threads of the segment kernels.
inline constexpr int segment_threads = 256;
// Blocks per SM that group_per_segment's registers are capped for where its accumulator
// takes 8 bytes or fewer (more loads in flight; larger accumulators would spill). H200, sum
// of 2^28 floats in 1-element segments: 2.09 ms without the cap, 1.76 ms with it.
inline constexpr int segment_group_blocks_per_sm = 8;

// Runs of equal keys (grid/by_key_kernels.cuh): a tile of threads x items pairs per block.
// A thread loads about 96 bytes of keys and values before it folds, and at least 9 pairs
// (Thrust's reduce_by_key tiles); a tile's runs (a key and a result each) are gathered in
// at most 40 KiB of shared memory. H100, 1 GiB of pairs, Thrust time / ours at runs of 1, 16
// and 1024: int32/float (12 items) 1.01 / 1.04 / 0.99; int64/double 0.90 / 0.84 / 0.79 at 6
// items, 0.99 / 0.99 / 0.97 at 9.
inline constexpr int by_key_threads = 256;
// Blocks per SM that reduce_tiles' registers are capped for.
inline constexpr int by_key_blocks_per_sm = 3;
constexpr int by_key_items(std::size_t key_bytes, std::size_t value_bytes, std::size_t result_bytes) {
    const std::size_t by_loads = 96 / (key_bytes + value_bytes) > 9 ? 96 / (key_bytes + value_bytes) : 9;
    const std::size_t by_gather = (std::size_t{40} << 10) / (by_key_threads * (key_bytes + result_bytes));
    const std::size_t items = by_loads < by_gather ? by_loads : by_gather;
    return items < 1 ? 1 : items > 16 ? 16 : static_cast<int>(items);
}

// The fixed order (grid/fixed_order/).
// Threads of fixed_blocks and fixed_blocks_bulk: 8 warps, a block of data in flight each.
inline constexpr int fixed_block_threads = 256;
// Scalar loads a lane of fixed_blocks' one-lane form issues before its first add: a
// block's 128 rows in 8 rounds.
inline constexpr int fixed_loads_in_flight = 16;
// 16-byte loads a thread of fixed_blocks' vector form issues before its first add: 128
// bytes of one array; half as many for two arrays, or for float data in double lanes (twice
// the registers). H200, block values of 2^28 floats alone (event time, over CUB's sum):
// 0.98 with 8 loads, 0.96 with 4; compensated (double lanes) 0.97 with 4, 0.93 with 8.
inline constexpr int fixed_vector_loads = 8;
inline constexpr int fixed_vector_loads_wide = 4;
// Threads of fixed_tree (the block tree in launches of its own), and the bytes of values
// one of its CTAs folds in shared memory: 8192 floats, 2048 compensated double pairs.
inline constexpr int fixed_tree_threads = 1024;
inline constexpr std::size_t fixed_tree_group_bytes = std::size_t{32} << 10;
// Bytes of values a block pass folds in shared memory as one group of its in-launch tree:
// 4096 floats, 1024 compensated double pairs. The staged kernel's blocks are one group.
inline constexpr std::size_t fixed_fold_group_bytes = std::size_t{16} << 10;
// Values each thread reads from L2 and folds in registers in the last round of an
// in-launch tree (fold_few_from_l2), where there are few values. H100, compensated float
// sum of 2^20 (the staged kernel, GPU time): 6.77 us, against 7.25 us with the round
// through shared memory.
inline constexpr std::size_t fixed_few_run = 4;
// Warps of a fixed_blocks_staged CTA, each holding a quarter of the block (32 rows a lane)
// in registers. H200, block values alone of 2^20 / 2^22 / 2^24 floats (GPU time a launch):
// 4 warps 4.08 / 7.18 / 18.33 us, the fast sum's pass 4.08 / 7.09 / 18.40, 8 warps of 16
// rows 4.48 / 8.01 / 20.02; 1 and 2 warps slower than 4 at every size.
inline constexpr int staged_warps = 4;
// Chunks a warp of fixed_blocks_bulk has in flight (bulk copies into shared memory), and
// the bytes of a chunk. H100, compensated float sums (pass and count, host time): chunks
// of 4 KiB two or three deep, 2 KiB four deep and 8 KiB one deep within one run's noise of
// 8 KiB two deep (2^22: 17.54-17.69 us against 17.84); H200: 4 KiB four deep and 2 KiB
// eight deep no faster.
inline constexpr int bulk_depth = 2;
inline constexpr std::size_t bulk_chunk_bytes = std::size_t{8} << 10;

// ---- Run time, one entry per architecture -------------------------------------------------

struct table {
    int major, minor;  // the compute capability the values were measured on

    // The fast order (grid/launch.cuh).
    std::size_t single_block_max_elements;      // up to this many, one block and one launch
    std::size_t single_block_max_remote_bytes;  // the same, for inputs read over the host link
    int blocks_per_sm;                          // resident blocks per SM a one-wave grid is sized for

    // Host data (staging/, multi_gpu/).
    std::size_t staging_chunk_bytes;     // bytes of each of the two pinned staging chunks
    std::size_t multi_gpu_min_elements;  // options::gpus splits host data from this many elements

    // The fixed order (grid/fixed_order.cuh).
    std::size_t staged_blocks_per_bulk_cta;  // staged kernel up to this many blocks per bulk CTA
    std::size_t vector_units_per_warp;       // vector form from this many units per warp of a wave
    std::size_t last_round_min_warps;        // fewer warps in a grid's last round: fewer CTAs

    // Segments (grid/segmented_kernels.cuh).
    std::uint64_t segment_small_elements;  // fast order: a group of lanes up to this length
    std::uint64_t segment_chunk_elements;  // fast order: a block up to this length, then jobs of it
    std::uint64_t segment_warp_elements;   // fixed order: a warp up to this length, then jobs of it
    std::uint64_t strided_threads_per_sm;  // strided segments: threads wanted per SM
    std::uint64_t strided_min_rows;        // strided segments: rows a piece holds at least
};

// sm_90: H100 and H200.
inline constexpr table sm_90{
    .major = 9,
    .minor = 0,
    // One block reduces everything and writes the result in a single launch: the second
    // launch of the two-launch path costs more than it saves. H200, f32 sum of 2^14: one
    // block 8.2 us, CUB's two passes 12.2 us.
    .single_block_max_elements = std::size_t{1} << 15,
    // Pinned host memory: each trip over the link takes microseconds, and one block keeps
    // 16 KiB in flight (256 threads x 64 bytes), so past that the grid spreads the reads
    // over the SMs. Reasoned, not swept.
    .single_block_max_remote_bytes = std::size_t{16} << 10,
    // The grid stays at one wave, so every partial is written once and the last block folds
    // about a thousand partials whatever n is (the occupancy calculator may lower it;
    // PREDUCE_CUDA_BLOCKS_PER_SM overrides it for sweeps). H200, f32 sum and max at 2^28 and
    // 2^30: 4, 8 and 16 within 0.5% of each other and of CUB.
    .blocks_per_sm = 8,
    // Two chunks in flight on two streams, the CPU filling one while the GPU reads the
    // other. H200, 2^24 floats from pageable memory end to end: 2.0 ms, against 6.6 ms for
    // copying the whole input first and then reducing it.
    .staging_chunk_bytes = std::size_t{8} << 20,
    // A split costs a fixed ~70 us (a hand-off to each GPU's thread, a synchronisation per
    // GPU: two H200s, reduce_parts of one 2^30-float part 1.037 ms against 0.965 ms for the
    // plain call), and 2^20 floats from pageable memory take ~140 us on one GPU (2^30: 149
    // ms on one, 105 ms on two). Below 2^20 a second GPU cannot pay for itself; the
    // break-even above it is not measured.
    .multi_gpu_min_elements = std::size_t{1} << 20,
    // The staged kernel holds its blocks in registers and comes sooner up to two blocks per
    // bulk CTA (H200, 2^20 elements, GPU time a launch: float sums 4.08 us against the bulk
    // pass's 4.72, double sums 5.55 against 6.07); past that the bulk CTAs fold their shares
    // themselves where the staged kernel's last CTA folds a value per block (2^22 floats,
    // staged forced: 9.97 us against 9.30).
    .staged_blocks_per_bulk_cta = 2,
    // With fewer units (C blocks) than one per warp of a wave, the one-lane form keeps more
    // loads in flight. H200, 2^24 floats: vector form 28 us, one-lane form 25 us.
    .vector_units_per_warp = 1,
    // A last round of units taken by fewer than half of a CTA's 8 warps runs with too few
    // loads in flight; then as few CTAs as give every warp the same count. H200, the
    // deterministic sum of 2^26 floats (kernel time): 660 CTAs 73.6 us, 512 CTAs 70.3 us
    // (2^28: 263.9, 253.4); the compensated sum of 2^26 floats with five warps of eight in
    // the last round: the whole wave of 792 CTAs 81.5-83.9 us, 683 CTAs 85.1-85.6 (host).
    .last_round_min_warps = 4,
    // Segment tiers by length (a group of 1-32 lanes, a block, jobs of a block each) and the
    // strided split: chosen by reasoning when the tiers were written, not swept.
    .segment_small_elements = 2048,
    .segment_chunk_elements = std::uint64_t{1} << 16,
    .segment_warp_elements = std::uint64_t{1} << 16,
    // Twice the 2048 threads an SM holds: rows are split into pieces until the threads
    // fill the GPU a few times over.
    .strided_threads_per_sm = 4096,
    .strided_min_rows = 64,
};

// Every architecture with measured values.
inline constexpr table known[] = {sm_90};

// Whether compute capability a is newer than b.
constexpr bool newer(int a_major, int a_minor, int b_major, int b_minor) noexcept {
    return a_major != b_major ? a_major > b_major : a_minor > b_minor;
}

// The entry among `entries` for compute capability major.minor: the newest that is not
// newer than it (a GPU newer than every entry gets the newest entry, as CUB's policy chain
// picks), or where every entry is newer (a GPU older than all of them), the oldest entry.
template <std::size_t N>
constexpr const table& nearest(const table (&entries)[N], int major, int minor) noexcept {
    const table* at_or_below = nullptr;
    const table* oldest = &entries[0];
    for (const table& e : entries) {
        if (!newer(e.major, e.minor, major, minor) &&
            (at_or_below == nullptr || newer(e.major, e.minor, at_or_below->major, at_or_below->minor)))
            at_or_below = &e;
        if (newer(oldest->major, oldest->minor, e.major, e.minor)) oldest = &e;
    }
    return at_or_below != nullptr ? *at_or_below : *oldest;
}

// The entry a GPU of compute capability major.minor runs with.
constexpr const table& pick(int major, int minor) noexcept { return nearest(known, major, minor); }

// Whether an entry's values keep every kernel correct (speed aside): nonzero divisors and
// counts, a staging chunk that holds a fixed-order block (4096 elements) of two 16-byte
// arrays, segment tiers in order of length, a last-round threshold of at most a CTA's
// warps, and fixed-order jobs of a power-of-two number of blocks (each job's tree is then a
// node of its segment's block tree).
constexpr bool fits_kernels(const table& t) noexcept {
    return t.single_block_max_elements >= 1 && t.blocks_per_sm >= 1 &&
           t.staging_chunk_bytes >= std::size_t{2} * 16 * 4096 &&
           t.multi_gpu_min_elements >= 1 && t.last_round_min_warps <= fixed_block_threads / 32 &&
           t.segment_small_elements >= 1 && t.segment_small_elements <= t.segment_chunk_elements &&
           t.segment_warp_elements >= 4096 && (t.segment_warp_elements & (t.segment_warp_elements - 1)) == 0 &&
           t.strided_threads_per_sm >= 1 && t.strided_min_rows >= 1;
}

constexpr bool all_fit_kernels() noexcept {
    for (const table& e : known)
        if (!fits_kernels(e)) return false;
    return true;
}
static_assert(all_fit_kernels(), "an entry of the tuning table would break a kernel");

} // namespace preduce::cuda::tuning
