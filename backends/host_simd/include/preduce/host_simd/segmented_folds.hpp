#pragma once
// Many results per call on host cores (detail/algorithm/segment_layout.hpp says which elements each result
// reduces), written once for every host backend: the work is cut into tasks here, and the
// backend only says how tasks run (an executor: run(count, f) calls f(t) for every t in
// [0, count), on one thread or many; seq loops, openmp uses a parallel for, kokkos a
// parallel_for on its host execution space).
//
//  - contiguous segments (offsets, fixed): a task folds a run of whole small segments, or
//    one piece of a large one; a large segment's pieces are combined in order afterwards.
//    Each segment or piece goes through the single-range folds (host_fold: SIMD lanes; the
//    fixed order's host_block_values), with indices counted from the segment's start;
//    float and double sums of short fixed segments fold several at once across the lanes
//    (fold/short_segment_sums.hpp).
//  - strided segments (o, c): a task takes a band of columns and a run of rows and keeps
//    one accumulator per column (fixed order: 32 lanes per column), so the loop over a row
//    vectorises across columns, and every column sees its rows in order, which keeps
//    non-commutative reducers in order too. Row runs split only when the columns alone
//    would leave cores idle; their partials are combined in order. Float and double sums
//    walk blocks of rows a chunk of columns at a time (fold/column_sums.hpp).
//
// The fixed order of each segment is the one of order.hpp over that segment alone: the
// same bits as reducing the segment by itself.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "preduce/host_simd/namespaces.hpp"
#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/detail/algorithm/segment_layout.hpp"
#include "preduce/host_simd/fixed_order_blocks.hpp"
#include "preduce/host_simd/fold/column_sums.hpp"
#include "preduce/host_simd/fold/short_segment_sums.hpp"
#include "preduce/host_simd/lane_fold.hpp"
#include "preduce/precision.hpp"
#include "preduce/source.hpp"

namespace preduce::host_simd::segmented {

namespace tuning {
// Elements a task folds, about: enough that the task's bookkeeping is noise, few enough
// that 2 .. 16 threads balance (the openmp backend's chunk, and a multiple of the fixed
// order's 4096-element blocks).
inline constexpr std::size_t task_elements = 16384;
// At most this many segments in one task (keeps the task list short for tiny segments).
inline constexpr std::size_t task_segments = 4096;
// Columns a strided task keeps accumulators for. The fast order keeps one per column: 2048
// of them (8 KiB of floats) stay in L1 while the task streams 8 KiB of every row; tasks
// then split the rows. The fixed order keeps 32 lanes per column: 256 columns (32 KiB of
// float lanes).
inline constexpr std::size_t band_columns = 2048;
inline constexpr std::size_t fixed_band_columns = 256;
// Tasks wanted per thread before rows are split among tasks.
inline constexpr std::size_t tasks_per_thread = 4;
// Float and double column sums of at least this many bytes walk blocks of rows
// (fold/column_sums.hpp): the rows then come from memory, where that walk reads faster
// (0.90-1.0 of a bare sum's speed against 0.70-0.85, 2^24-2^26 floats); from cache the row
// walk is faster (0.92 against 0.70-0.74, 2^20-2^22 floats) (docs/host-folds.md).
inline constexpr std::size_t column_blocks_bytes = std::size_t{32} << 20;
} // namespace tuning

// ---- contiguous segments --------------------------------------------------------------------

// A task: whole segments [first, last), or (piece >= 0) elements [lo, hi) of segment first.
struct contiguous_task {
    std::uint64_t first, last;
    std::uint64_t lo, hi;
    std::int64_t piece;  // index of this piece's partial, -1 for whole segments
};

struct contiguous_plan {
    std::vector<contiguous_task> tasks;
    std::vector<std::uint64_t> split;        // segments cut into pieces, in order
    std::vector<std::uint64_t> split_first;  // index of each split segment's first piece
    std::uint64_t pieces = 0;
};

// Cuts the segments into tasks; `align` (a divisor of task_elements) is what pieces of a
// large segment are multiples of (the fixed order's blocks).
inline contiguous_plan plan_contiguous(const segment_layout& L, std::size_t align) {
    contiguous_plan p;
    const std::uint64_t chunk = tuning::task_elements / align * align;
    std::uint64_t start = 0, elements = 0;
    const auto flush = [&](std::uint64_t end) {
        if (end > start) p.tasks.push_back({start, end, 0, 0, -1});
        start = end;
        elements = 0;
    };
    if (L.form == segment_form::fixed && L.size <= chunk) {  // equal short segments: no need to look at each
        const std::uint64_t per = std::max<std::uint64_t>(1, std::min<std::uint64_t>(
                                                                 L.size == 0 ? tuning::task_segments : chunk / L.size,
                                                                 tuning::task_segments));
        for (std::uint64_t s = 0; s < L.count; s += per) p.tasks.push_back({s, std::min(L.count, s + per), 0, 0, -1});
        return p;
    }
    for (std::uint64_t s = 0; s < L.count; ++s) {
        const std::uint64_t len = L.length(s);
        if (len > chunk) {
            flush(s);
            p.split.push_back(s);
            p.split_first.push_back(p.pieces);
            for (std::uint64_t lo = 0; lo < len; lo += chunk)
                p.tasks.push_back({s, s + 1, lo, std::min(len, lo + chunk), static_cast<std::int64_t>(p.pieces++)});
            start = s + 1;
            continue;
        }
        elements += len;
        if (elements >= chunk || s + 1 - start >= tuning::task_segments) flush(s + 1);
    }
    flush(L.count);
    return p;
}

// A few dozen elements: one vector register of lanes (8 for 4-byte accumulators, 4 for
// 8-byte ones), where the 128-byte lanes of lane_fold would cost more to set up and combine
// than the fold itself; fewer elements than lanes: the left fold.
template <class R>
typename R::accumulator_type short_fold(const R& r, source_t<R> seg, std::uint64_t lo, std::uint64_t hi) {
    using A = typename R::accumulator_type;
    constexpr std::size_t W = sizeof(A) <= 4 ? 8 : 4;
    if constexpr (is_commutative_v<R>)
        if (hi - lo >= W) return fold_lanes<W, false>(r, seg, lo, hi);
    A acc = R::identity();
    for (std::uint64_t i = lo; i < hi; ++i) acc = R::combine(acc, r.lift(seg[i], i));
    return acc;
}

// The fast order of seg[lo, hi) (a whole segment or a piece: indices as given).
template <class R>
typename R::accumulator_type fold_range(const R& r, source_t<R> seg, std::uint64_t lo, std::uint64_t hi, bool avx2) {
    return hi - lo >= 64 ? host_fold(r, seg, lo, hi, avx2) : short_fold(r, seg, lo, hi);
}

// Whole segments [first, last) of L, each folded alone and finished into out. Compiled
// once more for AVX2 (chosen at run time, as host_fold is), so that a task of many short
// segments makes one dispatch, not one a segment, and its short folds use AVX2 too.
template <bool Avx2, class R>
void fold_segments(const R& r, source_t<R> src, const segment_layout& L, std::uint64_t first, std::uint64_t last,
                   typename R::result_type* out) {
#if defined(PREDUCE_SHORT_SUMS)
    // Float and double sums of short equal segments: several segments across the lanes.
    if constexpr ((Avx2 || !short_sums_dispatched) &&
                  (std::is_same_v<R, sum_reducer<float>> || std::is_same_v<R, sum_reducer<double>>))
        if (L.form == segment_form::fixed && short_segments_fit<typename R::value_type>(L.size))
            first = sum_short_segments(src, L.size, first, last, out);
#endif
    for (std::uint64_t s = first; s < last; ++s) {
        const std::uint64_t len = L.length(s);
        const auto seg = src + L.begin(s);
        if (len < 64) {
            out[s] = r.finish(short_fold(r, seg, 0, len));
            continue;
        }
#if defined(PREDUCE_HOST_AVX2_DISPATCH)
        if constexpr (Avx2) {
            out[s] = r.finish(lane_fold_avx2(r, seg, 0, len));
            continue;
        }
#endif
        out[s] = r.finish(lane_fold(r, seg, 0, len));
    }
}
#if defined(PREDUCE_HOST_AVX2_DISPATCH)
template <class R>
__attribute__((target("avx2"), flatten)) void fold_segments_avx2(const R& r, source_t<R> src, const segment_layout& L,
                                                                  std::uint64_t first, std::uint64_t last,
                                                                  typename R::result_type* out) {
    fold_segments<true>(r, src, L, first, last, out);
}
#endif

template <class R, class Exec>
void contiguous_fast(const R& r, source_t<R> src, const segment_layout& L, typename R::result_type* out, Exec&& exec) {
    using A = typename R::accumulator_type;
    const contiguous_plan p = plan_contiguous(L, 1);
    std::vector<A> partial(p.pieces, R::identity());
    const bool avx2 = use_avx2();
    exec(p.tasks.size(), [&](std::size_t t) {
        const contiguous_task& k = p.tasks[t];
        if (k.piece >= 0) {
            partial[static_cast<std::size_t>(k.piece)] = fold_range(r, src + L.begin(k.first), k.lo, k.hi, avx2);
            return;
        }
#if defined(PREDUCE_HOST_AVX2_DISPATCH)
        if (avx2) return fold_segments_avx2(r, src, L, k.first, k.last, out);
#endif
        fold_segments<false>(r, src, L, k.first, k.last, out);
    });
    for (std::size_t i = 0; i < p.split.size(); ++i) {
        const std::uint64_t first = p.split_first[i];
        const std::uint64_t last = i + 1 < p.split.size() ? p.split_first[i + 1] : p.pieces;
        A acc = partial[first];
        for (std::uint64_t k = first + 1; k < last; ++k) acc = R::combine(acc, partial[k]);
        out[p.split[i]] = r.finish(acc);
    }
}

template <precision P, class R, class Exec>
void contiguous_fixed(const R& r, source_t<R> src, const segment_layout& L, typename R::result_type* out, Exec&& exec) {
    using V = fixed_order::value_t<P, typename R::accumulator_type>;
    const contiguous_plan p = plan_contiguous(L, fixed_order::block);
    // Block values of the split segments, segment after segment.
    std::vector<std::uint64_t> values_first(p.split.size() + 1, 0);
    for (std::size_t i = 0; i < p.split.size(); ++i)
        values_first[i + 1] = values_first[i] + fixed_order::block_count(L.length(p.split[i]));
    std::vector<V> values(values_first.back());
    const bool avx2 = use_avx2();
    exec(p.tasks.size(), [&](std::size_t t) {
        const contiguous_task& k = p.tasks[t];
        if (k.piece >= 0) {
            const auto i = static_cast<std::size_t>(
                std::upper_bound(p.split.begin(), p.split.end(), k.first) - p.split.begin() - 1);
            const std::uint64_t len = L.length(k.first);
            fixed_order::host_block_values<P>(r, src + L.begin(k.first), len, k.lo / fixed_order::block, fixed_order::block_count(k.hi),
                                      values.data() + values_first[i], avx2);
            return;
        }
        std::vector<V> v;
        for (std::uint64_t s = k.first; s < k.last; ++s) {
            const std::uint64_t len = L.length(s);
            v.resize(fixed_order::block_count(len));
            fixed_order::host_block_values<P>(r, src + L.begin(s), len, 0, v.size(), v.data(), avx2);
            out[s] = fixed_order::finish_blocks<P>(r, v);
        }
    });
    for (std::size_t i = 0; i < p.split.size(); ++i) {
        std::vector<V> v(values.begin() + static_cast<std::ptrdiff_t>(values_first[i]),
                         values.begin() + static_cast<std::ptrdiff_t>(values_first[i + 1]));
        out[p.split[i]] = fixed_order::finish_blocks<P>(r, v);
    }
}

// ---- strided segments -------------------------------------------------------------------------

// A task: column band [c0, c1) of outer index o, rows [j0, j1) (a row piece, whose partial
// goes to slot `piece` of the band), or all rows.
struct strided_task {
    std::uint64_t o, c0, c1, j0, j1;
    std::uint64_t piece;  // row piece index inside its (o, band): 0 .. pieces - 1
};

struct strided_plan {
    std::vector<strided_task> tasks;
    std::uint64_t row_pieces = 1;  // pieces per (o, band); 1: no split
};

inline strided_plan plan_strided(const segment_layout& L, std::size_t threads, std::uint64_t row_align,
                                 std::uint64_t band) {
    strided_plan p;
    const std::uint64_t C = L.inner, M = L.size;
    const std::uint64_t O = C == 0 ? 0 : L.count / C;
    const std::uint64_t bands = (C + band - 1) / band;
    const std::uint64_t want = static_cast<std::uint64_t>(threads) * tuning::tasks_per_thread;
    if (O * bands < want && M > row_align) {
        p.row_pieces = std::min<std::uint64_t>((want + O * bands - 1) / (O * bands), (M + row_align - 1) / row_align);
    }
    const std::uint64_t rows_per = (M + p.row_pieces - 1) / p.row_pieces;
    const std::uint64_t rows = (rows_per + row_align - 1) / row_align * row_align;
    for (std::uint64_t o = 0; o < O; ++o)
        for (std::uint64_t b = 0; b < bands; ++b)
            for (std::uint64_t k = 0; k < p.row_pieces; ++k) {
                const std::uint64_t j0 = std::min(M, k * rows), j1 = std::min(M, (k + 1) * rows);
                p.tasks.push_back({o, b * band, std::min(C, (b + 1) * band), j0, j1, k});
            }
    return p;
}

// acc[c - c0] for c in [c0 + first_column, c0 + last_column), folded over rows [j0, j1) of
// band [c0, c1) of outer index o. Eight rows at a time are combined in registers, in row
// order (pairs, then pairs of pairs), before they meet acc: an eighth of the accumulators'
// loads and stores, which otherwise outnumber the data's loads. (A bare copy of this fold
// over 2^18 x 256 floats read at 0.77-0.80 of its probe on one thread with four rows a
// step, 0.98-1.03 with eight: docs/host-folds.md.) The rows left past the last group of
// eight are added one at a time.
template <class R>
void fold_band_rows(const R& r, source_t<R> src, const segment_layout& L, const strided_task& k, std::uint64_t j0,
                    std::uint64_t j1, std::uint64_t first_column, std::uint64_t last_column,
                    typename R::accumulator_type* acc) {
    constexpr std::uint64_t together = 8, rows_ahead = together + 4;
    const std::uint64_t C = L.inner, M = L.size, w = last_column - first_column;
    const auto row_of = [&](std::uint64_t j) { return src + ((k.o * M + j) * C + k.c0 + first_column); };
    acc += first_column;
    // The hardware prefetchers stop at page boundaries, and a band's piece of a row is a
    // page or two, a row apart: one line in each page of the pieces a few rows ahead is
    // prefetched by hand, which starts the hardware's stream there (a prefetch of every line
    // cost more than it saved: 0.68 of the read probe against 0.95, 8192 x 8192 floats,
    // 2 threads, docs/host-folds.md).
    const auto prefetch = [&](std::uint64_t j) {
        if constexpr (std::is_pointer_v<source_t<R>>)
            if (j < j1)
                for (std::uint64_t b = 0; b < w * sizeof(*row_of(j)); b += 4096)
                    __builtin_prefetch(reinterpret_cast<const char*>(row_of(j)) + b);
    };
    std::uint64_t j = j0;
    for (; j + together <= j1; j += together) {
        const auto r0 = row_of(j), r1 = row_of(j + 1), r2 = row_of(j + 2), r3 = row_of(j + 3), r4 = row_of(j + 4),
                   r5 = row_of(j + 5), r6 = row_of(j + 6), r7 = row_of(j + 7);
        for (std::uint64_t a = 0; a < together; ++a) prefetch(j + rows_ahead + a);
        PREDUCE_PRAGMA_OMP_SIMD
        for (std::uint64_t c = 0; c < w; ++c) {
            const auto a01 = R::combine(r.lift(r0[c], j), r.lift(r1[c], j + 1));
            const auto a23 = R::combine(r.lift(r2[c], j + 2), r.lift(r3[c], j + 3));
            const auto a45 = R::combine(r.lift(r4[c], j + 4), r.lift(r5[c], j + 5));
            const auto a67 = R::combine(r.lift(r6[c], j + 6), r.lift(r7[c], j + 7));
            acc[c] = R::combine(acc[c], R::combine(R::combine(a01, a23), R::combine(a45, a67)));
        }
    }
    for (; j < j1; ++j) {
        const auto row = row_of(j);
        prefetch(j + rows_ahead);
        PREDUCE_PRAGMA_OMP_SIMD
        for (std::uint64_t c = 0; c < w; ++c) acc[c] = R::combine(acc[c], r.lift(row[c], j));
    }
}

// acc[c - c0] folded over rows [k.j0, k.j1) of band [c0, c1) of outer index o
// (fold_band_rows). Float and double sums of tuning::column_blocks_bytes and more take the
// whole blocks of rows and chunks of columns through fold/column_sums.hpp first (the same
// bits, read faster from memory); both groupings start at k.j0 and step by multiples of
// eight rows.
template <bool Avx2, class R>
void fold_band(const R& r, source_t<R> src, const segment_layout& L, const strided_task& k,
               typename R::accumulator_type* acc) {
    const std::uint64_t w = k.c1 - k.c0;
    std::uint64_t j = k.j0;
#if defined(PREDUCE_SHORT_SUMS)
    if constexpr ((Avx2 || !short_sums_dispatched) &&
                  (std::is_same_v<R, sum_reducer<float>> || std::is_same_v<R, sum_reducer<double>>)) {
        static_assert(column_block_rows % 8 == 0);
        const std::uint64_t C = L.inner;
        if (L.count * L.size * sizeof(*src) >= tuning::column_blocks_bytes) {
            const auto done = sum_column_blocks(src + ((k.o * L.size + k.j0) * C + k.c0), C, k.j1 - k.j0, w, acc);
            if (done.columns < w) fold_band_rows(r, src, L, k, j, j + done.rows, done.columns, w, acc);
            j += done.rows;
        }
    }
#endif
    fold_band_rows(r, src, L, k, j, k.j1, 0, w, acc);
}

#if defined(PREDUCE_HOST_AVX2_DISPATCH)
// fold_band compiled for AVX2 (chosen at run time, as host_fold is): twice the lanes a row.
template <class R>
__attribute__((target("avx2"), flatten)) void fold_band_avx2(const R& r, source_t<R> src, const segment_layout& L,
                                                              const strided_task& k, typename R::accumulator_type* acc) {
    fold_band<true>(r, src, L, k, acc);
}
#endif

template <class R, class Exec>
void strided_fast(const R& r, source_t<R> src, const segment_layout& L, typename R::result_type* out, std::size_t threads,
                  Exec&& exec) {
    using A = typename R::accumulator_type;
    const strided_plan p = plan_strided(L, threads, 1, tuning::band_columns);
    const std::uint64_t C = L.inner;
    const std::uint64_t width = std::min<std::uint64_t>(C, tuning::band_columns);
    // With row pieces, each task leaves its band's partials in a slot of its own.
    std::vector<A> partial(p.row_pieces > 1 ? p.tasks.size() * width : 0, R::identity());
    [[maybe_unused]] const bool avx2 = use_avx2();
    exec(p.tasks.size(), [&](std::size_t t) {
        const strided_task& k = p.tasks[t];
        std::vector<A> local(p.row_pieces > 1 ? 0 : k.c1 - k.c0, R::identity());
        A* acc = p.row_pieces > 1 ? partial.data() + t * width : local.data();
#if defined(PREDUCE_HOST_AVX2_DISPATCH)
        if (avx2) fold_band_avx2(r, src, L, k, acc);
        else
#endif
            fold_band<false>(r, src, L, k, acc);
        if (p.row_pieces == 1)
            for (std::uint64_t c = k.c0; c < k.c1; ++c) out[k.o * C + c] = r.finish(acc[c - k.c0]);
    });
    if (p.row_pieces == 1) return;
    for (std::size_t t = 0; t < p.tasks.size(); t += p.row_pieces) {  // the pieces of one band, in row order
        const strided_task& k = p.tasks[t];
        for (std::uint64_t c = 0; c < k.c1 - k.c0; ++c) {
            A acc = partial[t * width + c];
            for (std::uint64_t q = 1; q < p.row_pieces; ++q) acc = R::combine(acc, partial[(t + q) * width + c]);
            out[k.o * C + k.c0 + c] = r.finish(acc);
        }
    }
}

// The fixed order of every column of a band over rows [j0, j1) (whole 4096-row blocks, or
// up to the last row): block values into v[(block - j0 / 4096) * w + c]. Lane j % 32 of a
// column adds the column's rows j of the block in order, as fixed_order::block_value does.
template <precision P, class R>
PREDUCE_NO_CONTRACT void band_block_values(const R& r, source_t<R> src, const segment_layout& L, const strided_task& k,
                       fixed_order::value_t<P, typename R::accumulator_type>* v) {
    using A = typename R::accumulator_type;
    using V = fixed_order::value_t<P, A>;
    const std::uint64_t C = L.inner, M = L.size, w = k.c1 - k.c0;
    std::vector<V> lanes(fixed_order::lanes * w);
    std::vector<A> row_lifted(w);
    for (std::uint64_t b0 = k.j0; b0 < k.j1; b0 += fixed_order::block) {
        const std::uint64_t b1 = std::min(k.j1, b0 + fixed_order::block);
        std::fill(lanes.begin(), lanes.end(), fixed_order::zero<P, A>(R::identity()));
        for (std::uint64_t j = b0; j < b1; ++j) {
            const auto row = src + ((k.o * M + j) * C + k.c0);
            V* lane = lanes.data() + (j - b0) % fixed_order::lanes * w;
            PREDUCE_PRAGMA_OMP_SIMD
            for (std::uint64_t c = 0; c < w; ++c) row_lifted[c] = r.lift(row[c], j);
            fixed_order::launder_row<R>(row_lifted.data());
            PREDUCE_PRAGMA_OMP_SIMD
            for (std::uint64_t c = 0; c < w; ++c) fixed_order::add<P, A>(lane[c], row_lifted[c]);
        }
        for (std::size_t s = fixed_order::lanes / 2; s > 0; s /= 2)
            for (std::size_t j = 0; j < s; ++j)
                for (std::uint64_t c = 0; c < w; ++c) lanes[j * w + c] = fixed_order::merge<P, A>(lanes[j * w + c], lanes[(j + s) * w + c]);
        V* dst = v + (b0 - k.j0) / fixed_order::block * w;
        for (std::uint64_t c = 0; c < w; ++c) dst[c] = lanes[c];
    }
}

template <precision P, class R, class Exec>
void strided_fixed(const R& r, source_t<R> src, const segment_layout& L, typename R::result_type* out, std::size_t threads,
                   Exec&& exec) {
    using V = fixed_order::value_t<P, typename R::accumulator_type>;
    const strided_plan p = plan_strided(L, threads, fixed_order::block, tuning::fixed_band_columns);
    const std::uint64_t C = L.inner, m = fixed_order::block_count(L.size);
    // Block values, per task: (blocks of its rows) x (its columns), at a fixed stride.
    const std::uint64_t per_task_blocks = p.row_pieces > 1 ? fixed_order::block_count(p.tasks.empty() ? 0 : p.tasks[0].j1 - p.tasks[0].j0) : m;
    std::vector<V> values(p.tasks.size() * per_task_blocks * tuning::fixed_band_columns);
    exec(p.tasks.size(), [&](std::size_t t) {
        band_block_values<P>(r, src, L, p.tasks[t], values.data() + t * per_task_blocks * tuning::fixed_band_columns);
    });
    std::vector<V> column(m);
    for (std::size_t t = 0; t < p.tasks.size(); t += p.row_pieces) {
        const strided_task& k = p.tasks[t];
        const std::uint64_t w = k.c1 - k.c0;
        for (std::uint64_t c = 0; c < w; ++c) {
            std::uint64_t b = 0;
            for (std::uint64_t q = 0; q < p.row_pieces; ++q) {
                const strided_task& piece = p.tasks[t + q];
                const V* v = values.data() + (t + q) * per_task_blocks * tuning::fixed_band_columns;
                for (std::uint64_t i = 0; i < fixed_order::block_count(piece.j1 - piece.j0); ++i) column[b++] = v[i * w + c];
            }
            column.resize(b);
            out[k.o * C + k.c0 + c] = fixed_order::finish_blocks<P>(r, column);
            column.resize(m);
        }
    }
}

// ---- entry ------------------------------------------------------------------------------------

// Every segment of L over src into out[0, L.count), in order P, on `threads` threads at most
// through exec.
template <precision P, class R, class Exec>
void reduce(const R& r, source_t<R> src, const segment_layout& L, typename R::result_type* out, std::size_t threads,
            Exec&& exec) {
    if (L.form == segment_form::strided) {
        if constexpr (P == precision::fast) strided_fast(r, src, L, out, threads, exec);
        else strided_fixed<P>(r, src, L, out, threads, exec);
    } else {
        if constexpr (P == precision::fast) contiguous_fast(r, src, L, out, exec);
        else contiguous_fixed<P>(r, src, L, out, exec);
    }
}

} // namespace preduce::host_simd::segmented
