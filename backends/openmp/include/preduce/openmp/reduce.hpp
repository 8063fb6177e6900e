#pragma once
// The OpenMP backend: `#pragma omp parallel for reduction(...)` over fixed-size chunks,
// each chunk folded with independent SIMD lanes (preduce/host_simd/lane_fold.hpp). The built-in
// clause operators are used where their meaning equals ours (+ on wrap-around integers,
// * on integers and floats, min/max on integers); everything else (float sums, whose
// identity is -0.0; NaN-propagating float min/max; argmin/argmax with lowest-index
// ties; user operations) goes through `declare reduction` with the reducer's own combine
// and identity. Reducers that are not commutative keep operand order (ordered_fold).
//   preduce::openmp::reduce(data, n, op[, options]) / reduce(x, y, n, op[, options])
// Compile with OpenMP enabled (target preduce::openmp).
#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "preduce/detail/backend_contract/entry.hpp"
#include "preduce/host_simd/kernels.hpp"
#include "preduce/openmp/info.hpp"
#include "preduce/options.hpp"
#include "preduce/reducers.hpp"

namespace preduce::openmp {

namespace tuning {
// Elements per loop iteration of the parallel for: 64 KiB of floats, large enough that
// the per-chunk combine is noise, small enough for static scheduling to balance.
inline constexpr std::size_t chunk_elements = 16384;
// Below this many elements one thread does the whole fold: a parallel region costs a few
// microseconds, which is as long as folding ~32K floats on one core.
inline constexpr std::size_t min_parallel_elements = 32768;
} // namespace tuning

inline int thread_count(const options& opts) { return opts.threads > 0 ? opts.threads : omp_get_max_threads(); }


// Operand order for reducers that are not commutative: OpenMP leaves the order in which
// a reduction clause combines private copies unspecified, so each thread folds one
// contiguous run of chunks into its own slot and the slots are combined in thread order.
template <class R>
typename R::accumulator_type ordered_fold(const R& reducer, source_t<R> data, std::size_t n, int threads, bool avx2) {
    using A = typename R::accumulator_type;
    std::vector<A> partial(static_cast<std::size_t>(threads), R::identity());
#pragma omp parallel num_threads(threads)
    {
        const auto t = static_cast<std::size_t>(omp_get_thread_num());
        const auto team = static_cast<std::size_t>(omp_get_num_threads());
        const std::size_t chunks = (n + tuning::chunk_elements - 1) / tuning::chunk_elements;
        const std::size_t first = chunks * t / team, last = chunks * (t + 1) / team;
        const std::size_t begin = first * tuning::chunk_elements;
        const std::size_t end = last * tuning::chunk_elements < n ? last * tuning::chunk_elements : n;
        if (begin < end) partial[t] = host_simd::kernels<R>::fold(reducer, data, begin, end, avx2);
    }
    A acc = R::identity();
    for (const A& p : partial) acc = R::combine(acc, p);
    return acc;
}

// The fixed order of precision::deterministic/compensated: threads compute block values
// (any thread may take any block: a block's value depends on its elements alone), then
// one thread runs the block tree. Same bits as seq at every thread count.
template <precision P, class R>
typename R::result_type reduce_in_fixed_order(const R& reducer, source_t<R> data, std::size_t n, int threads) {
    namespace fixed_order = ::preduce::detail::fixed_order;
    using A = typename R::accumulator_type;
    if (n < tuning::min_parallel_elements || threads <= 1) return host_simd::reduce_fixed<P>(reducer, data, n);
    std::vector<fixed_order::value_t<P, A>> v(fixed_order::block_count(n));
    // 4 blocks (16K elements, as the fast path's chunks) per loop index.
    constexpr std::size_t per = 4;
    const auto tasks = static_cast<std::int64_t>((v.size() + per - 1) / per);
    const bool avx2 = ::preduce::host_simd::use_avx2();
#pragma omp parallel for schedule(static) num_threads(threads)
    for (std::int64_t t = 0; t < tasks; ++t) {
        const std::size_t b0 = static_cast<std::size_t>(t) * per;
        const std::size_t b1 = b0 + per < v.size() ? b0 + per : v.size();
        host_simd::block_values<P>(reducer, data, n, b0, b1, v.data(), avx2);
    }
    return fixed_order::finish_blocks<P>(reducer, v);
}

// The backend's own order: chunks across threads, SIMD lanes inside each chunk.
template <class R>
typename R::result_type fast_order(const R& reducer, source_t<R> data, std::size_t n, int threads) {
    using A = typename R::accumulator_type;
    const std::int64_t chunks =
        static_cast<std::int64_t>((n + tuning::chunk_elements - 1) / tuning::chunk_elements);
    const bool parallel = n >= tuning::min_parallel_elements && threads > 1;
    const bool avx2 = ::preduce::host_simd::use_avx2();
    auto chunk = [&](std::int64_t c) {
        const std::size_t begin = static_cast<std::size_t>(c) * tuning::chunk_elements;
        const std::size_t end = begin + tuning::chunk_elements < n ? begin + tuning::chunk_elements : n;
        return host_simd::kernels<R>::fold(reducer, data, begin, end, avx2);
    };

    // Too small to share: no parallel region at all (even an inactive one costs more
    // than folding a few thousand elements).
    if (!parallel) return reducer.finish(host_simd::kernels<R>::fold(reducer, data, 0, n, avx2));

    if constexpr (!is_commutative_v<R>) return reducer.finish(ordered_fold(reducer, data, n, threads, avx2));

    A acc = R::identity();
    // reduction(+) starts private copies at +0.0, which would turn a float sum of -0.0
    // into +0.0; floats therefore take the declared reduction with R::identity().
    if constexpr (R::kind == combine_kind::plus && std::is_integral_v<A>) {
#pragma omp parallel for schedule(static) num_threads(threads) reduction(+ : acc)
        for (std::int64_t c = 0; c < chunks; ++c) acc += chunk(c);
    } else if constexpr (R::kind == combine_kind::times) {
#pragma omp parallel for schedule(static) num_threads(threads) reduction(* : acc)
        for (std::int64_t c = 0; c < chunks; ++c) acc *= chunk(c);
    } else if constexpr (R::kind == combine_kind::min) {
#pragma omp parallel for schedule(static) num_threads(threads) reduction(min : acc)
        for (std::int64_t c = 0; c < chunks; ++c) acc = R::combine(acc, chunk(c));
    } else if constexpr (R::kind == combine_kind::max) {
#pragma omp parallel for schedule(static) num_threads(threads) reduction(max : acc)
        for (std::int64_t c = 0; c < chunks; ++c) acc = R::combine(acc, chunk(c));
    } else {
#pragma omp declare reduction(preduce_combine : A : omp_out = R::combine(omp_out, omp_in)) \
    initializer(omp_priv = R::identity())
#pragma omp parallel for schedule(static) num_threads(threads) reduction(preduce_combine : acc)
        for (std::int64_t c = 0; c < chunks; ++c) acc = R::combine(acc, chunk(c));
    }
    return reducer.finish(acc);
}

template <precision P, class R>
typename R::result_type reduce_source(source_t<R> data, std::size_t n, const R& reducer, const options& opts) {
    // Below min_parallel_elements one thread folds everything, so the team size is not
    // asked for: the query is a call into the OpenMP runtime on the small calls' path.
    const int threads = n < tuning::min_parallel_elements ? 1 : thread_count(opts);
    if constexpr (P != precision::fast) return reduce_in_fixed_order<P>(reducer, data, n, threads);
    else return fast_order(reducer, data, n, threads);
}

// One result per segment (detail/algorithm/segment_layout.hpp): host_simd/segmented_folds.hpp's tasks, shared by
// the team (dynamic: segment sizes may vary).
template <precision P, class R>
void reduce_segments_source(source_t<R> src, std::size_t, const ::preduce::detail::segment_layout& layout, const R& reducer,
                            typename R::result_type* out, const options& opts) {
    const int threads = thread_count(opts);
    const host_simd::executor team{static_cast<std::size_t>(threads), &threads,
                                   [](const void* self, std::size_t count, host_simd::task_ref task) {
        const int size = *static_cast<const int*>(self);
        if (size <= 1 || count <= 1) {
            for (std::size_t t = 0; t < count; ++t) task(t);
            return;
        }
        // Runs of consecutive tasks, about eight a thread: each thread streams long stretches of
        // memory (single tasks handed out in turn cost 2 threads a fifth of their reading
        // speed on 16-element segments), and uneven tasks still balance.
        const auto run = static_cast<int>(std::max<std::size_t>(1, count / (static_cast<std::size_t>(size) * 8)));
#pragma omp parallel for schedule(dynamic, run) num_threads(size)
        for (std::int64_t t = 0; t < static_cast<std::int64_t>(count); ++t) task(static_cast<std::size_t>(t));
    }};
    host_simd::segments<P>(reducer, src, layout, out, team);
}

PREDUCE_BACKEND_ENTRY_POINTS

} // namespace preduce::openmp
