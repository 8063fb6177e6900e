#pragma once
// Float and double column sums of a band of rows (segmented_folds.hpp's fold_band, fast
// order), with fold_band's bits: every column adds its rows eight at a time, combined in
// pairs, then pairs of pairs, in row order, onto its accumulator. What changes is the walk:
// rows go in blocks of 32, and each block is read a chunk of 8 registers' columns at a time
// (64 floats, 32 doubles), whose accumulators stay in those registers for the whole block:
// no accumulator loads and stores between a block's rows. From memory this walk reads narrow
// rows near the read rate, faster than the row walk; from cache it is slower
// (docs/host-folds.md), so segmented_folds.hpp takes it for large inputs only. One line a
// page of the next block is prefetched.
#include <cstdint>

#include "preduce/host_simd/fold/short_segment_sums.hpp"

namespace preduce::host_simd {

// Rows a block of sum_column_blocks.
inline constexpr std::uint64_t column_block_rows = 32;

#if defined(PREDUCE_SHORT_SUMS)
// Adds onto acc[c] the column sums of the band [0, width) of rows [0, rows) at `pitch`
// elements apart, from src (row 0, the band's first column): the whole blocks of rows only,
// and the whole chunks of columns only. Returns {rows done, columns done}; the caller folds the
// columns past them over those rows, then every column over the rows past them, eight rows
// a step from the first, which keeps each column's order.
struct column_blocks_done {
    std::uint64_t rows, columns;
};

template <class T>
PREDUCE_SHORT_SUMS_TARGET inline column_blocks_done sum_column_blocks(const T* src, std::uint64_t pitch,
                                                                      std::uint64_t rows, std::uint64_t width, T* acc) {
    constexpr int lanes = 32 / sizeof(T), regs = 8;
    constexpr std::uint64_t chunk = lanes * regs, block = column_block_rows;
    const std::uint64_t blocks_end = rows / block * block, columns = width / chunk * chunk;
    if (blocks_end == 0 || columns == 0) return {0, 0};
    using V = decltype(short_sums::load(src));
    const std::uint64_t row_bytes = width * sizeof(T), pitch_bytes = pitch * sizeof(T);
    for (std::uint64_t j = 0; j < blocks_end; j += block) {
        // One line a page of the next block: by page across contiguous rows, else by row.
        if (j + block < blocks_end) {
            const char* next = reinterpret_cast<const char*>(src + (j + block) * pitch);
            if (row_bytes == pitch_bytes)
                for (std::uint64_t b = 0; b < block * row_bytes; b += 4096) __builtin_prefetch(next + b);
            else
                for (std::uint64_t i = 0; i < block; ++i)
                    for (std::uint64_t b = 0; b < row_bytes; b += 4096) __builtin_prefetch(next + i * pitch_bytes + b);
        }
        for (std::uint64_t c0 = 0; c0 < columns; c0 += chunk) {
            V a[regs];
            for (int v = 0; v < regs; ++v) a[v] = short_sums::load(acc + c0 + lanes * v);
            for (std::uint64_t g = j; g < j + block; g += 8) {
                const T* p = src + g * pitch + c0;
                for (int v = 0; v < regs; ++v) {
                    const T* q = p + lanes * v;
                    const V a01 = short_sums::add(short_sums::load(q), short_sums::load(q + pitch));
                    const V a23 = short_sums::add(short_sums::load(q + 2 * pitch), short_sums::load(q + 3 * pitch));
                    const V a45 = short_sums::add(short_sums::load(q + 4 * pitch), short_sums::load(q + 5 * pitch));
                    const V a67 = short_sums::add(short_sums::load(q + 6 * pitch), short_sums::load(q + 7 * pitch));
                    a[v] = short_sums::add(a[v], short_sums::add(short_sums::add(a01, a23), short_sums::add(a45, a67)));
                }
            }
            for (int v = 0; v < regs; ++v) short_sums::store(acc + c0 + lanes * v, a[v]);
        }
    }
    return {blocks_end, columns};
}
#endif

} // namespace preduce::host_simd
