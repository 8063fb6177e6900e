#pragma once
// The kernels of many results on a device execution space (device_segments.hpp runs them).
// Element j of a segment is src[begin + j * stride], lifted with index j. A job's fold goes
// to the segment's result when the job is the whole segment (jobs_view's whole form) and to
// partial[job] otherwise, which a combine kernel then folds in job order per segment.
//
// The fast order:
//   fast_lanes_fold   one segment per team thread, its elements split over the thread's
//                     vector lanes (commutative reducers; coalesced reads of short segments)
//   fast_team_fold    one job per team, over the team's threads (commutative reducers)
//   fast_thread_fold  one job per thread, in element order (any reducer; strided bands,
//                     where neighbouring threads read neighbouring columns)
//   fast_combine      each segment's partial results in job order, a thread per segment
//   fast_team_combine the same, a team per segment (commutative reducers)
// The fixed order of precision::deterministic / compensated (fixed_order/order.hpp), each
// segment's own 4096-element blocks counted from its first element:
//   fixed_team_fold   one job per team of `warps` warps of 32 threads: thread j of a warp is
//                     lane j of a block, the warp's first thread runs the lane tree, the
//                     team's first thread takes the block values in order into the block tree
//   fixed_thread_fold one job per thread, a block at a time (fixed_order::block_value), or a
//                     whole segment of at most 32 elements as one row (fixed_order::short_value)
//   fixed_team_combine each segment's partial trees in job order, a team per segment, the
//                     tree a level at a time
// A job of the fixed order starts at a block whose index is a multiple of its block count
// rounded up to a power of two (device_segments.hpp cuts them so), so its tree is a node of
// the segment's block tree and the combine's tree over those nodes is the rest of it.
//
// Functors hold raw pointers, never Views: with Kokkos 4.6.99 built by nvcc 13 in C++20
// mode a View held by a functor reaches the kernel with the members after it wrong
// (scripts/kokkos/view_layout.cpp).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>

#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/detail/algorithm/segment_layout.hpp"
#include "preduce/kokkos/detail/device_jobs.hpp"
#include "preduce/kokkos/detail/reducer.hpp"
#include "preduce/precision.hpp"
#include "preduce/source.hpp"

namespace preduce::kokkos::detail {

namespace fixed_order = ::preduce::detail::fixed_order;
using ::preduce::detail::segment_layout;

template <class ExecSpace>
using team_policy = Kokkos::TeamPolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;

// What run_jobs (device_segments.hpp) gives every job and combine kernel: the jobs, the
// partial results (one per job; read by the combines), and the results (the job kernels
// write them only when jobs are whole segments, and leave this null otherwise).
template <class Partial, class Out>
struct job_io {
    jobs_view J;
    Partial* partial = nullptr;
    Out* out = nullptr;
};

// Where segment s starts (its element j is at j * L.stride() from there).
template <class S>
KOKKOS_INLINE_FUNCTION S segment_start(S src, const segment_layout& L, std::uint64_t s) {
    return src + static_cast<std::size_t>(L.begin(s));
}

template <class R>
struct fast_lanes_fold {
    using A = typename R::accumulator_type;
    source_t<R> src;
    R r;
    segment_layout L;
    typename R::result_type* out;
    template <class Member>
    KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
        const std::uint64_t s =
            static_cast<std::uint64_t>(m.league_rank()) * static_cast<std::uint64_t>(m.team_size()) + m.team_rank();
        if (s >= L.count) return;
        const auto x = segment_start(src, L, s);
        A acc = R::identity();
        Kokkos::parallel_reduce(
            Kokkos::ThreadVectorRange(m, static_cast<std::int64_t>(L.length(s))),
            [&](std::int64_t j, A& a) {
                a = R::combine(a, r.lift(x[static_cast<std::size_t>(j)], static_cast<std::size_t>(j)));
            },
            make_reducer<R>(acc));
        Kokkos::single(Kokkos::PerThread(m), [&] { out[s] = r.finish(acc); });
    }
};

template <class R>
struct fast_team_fold : job_io<typename R::accumulator_type, typename R::result_type> {
    using A = typename R::accumulator_type;
    source_t<R> src;
    R r;
    segment_layout L;
    template <class Member>
    KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
        const auto k = static_cast<std::uint64_t>(m.league_rank());
        const job_run job = this->J.at(L, k);
        const auto x = segment_start(src, L, job.segment);
        A acc = R::identity();
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(m, static_cast<std::int64_t>(job.first), static_cast<std::int64_t>(job.last)),
            [&](std::int64_t j, A& a) {
                a = R::combine(a, r.lift(x[static_cast<std::size_t>(j)], static_cast<std::size_t>(j)));
            },
            make_reducer<R>(acc));
        Kokkos::single(Kokkos::PerTeam(m), [&] {
            if (this->out != nullptr) this->out[job.segment] = r.finish(acc);
            else this->partial[k] = acc;
        });
    }
};

template <class R>
struct fast_thread_fold : job_io<typename R::accumulator_type, typename R::result_type> {
    using A = typename R::accumulator_type;
    source_t<R> src;
    R r;
    segment_layout L;
    KOKKOS_INLINE_FUNCTION void operator()(std::int64_t index) const {
        const auto k = static_cast<std::uint64_t>(index);
        const job_run job = this->J.at(L, k);
        const auto x = segment_start(src, L, job.segment);
        const std::uint64_t stride = L.stride();
        A acc = R::identity();
        for (std::uint64_t j = job.first; j < job.last; ++j)
            acc = R::combine(acc, r.lift(x[static_cast<std::size_t>(j * stride)], static_cast<std::size_t>(j)));
        if (this->out != nullptr) this->out[job.segment] = r.finish(acc);
        else this->partial[k] = acc;
    }
};

template <class R>
struct fast_combine : job_io<const typename R::accumulator_type, typename R::result_type> {
    using A = typename R::accumulator_type;
    static constexpr bool per_team = false;
    R r;
    KOKKOS_INLINE_FUNCTION void operator()(std::int64_t index) const {
        const auto s = static_cast<std::uint64_t>(index);
        A acc = R::identity();
        const std::uint64_t start = this->J.start(s), jobs = this->J.jobs(s), step = this->J.step();
        for (std::uint64_t i = 0; i < jobs; ++i) acc = R::combine(acc, this->partial[start + i * step]);
        this->out[s] = r.finish(acc);
    }
};

// Commutative reducers: a team per segment over its partial results.
template <class R>
struct fast_team_combine : job_io<const typename R::accumulator_type, typename R::result_type> {
    using A = typename R::accumulator_type;
    static constexpr bool per_team = true;
    R r;
    template <class Member>
    KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
        const auto s = static_cast<std::uint64_t>(m.league_rank());
        const std::uint64_t start = this->J.start(s), step = this->J.step();
        A acc = R::identity();
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(m, static_cast<std::int64_t>(this->J.jobs(s))),
            [&](std::int64_t i, A& a) { a = R::combine(a, this->partial[start + static_cast<std::uint64_t>(i) * step]); },
            make_reducer<R>(acc));
        Kokkos::single(Kokkos::PerTeam(m), [&] { this->out[s] = r.finish(acc); });
    }
};

// The fixed order's value of a job, or the segment's result when the job is all of it.
template <precision P, class R>
KOKKOS_INLINE_FUNCTION void fixed_deliver(const R& r, const fixed_order::streaming_tree<P, typename R::accumulator_type>& tree,
                                          std::uint64_t k, std::uint64_t segment,
                                          fixed_order::value_t<P, typename R::accumulator_type>* partial,
                                          typename R::result_type* out) {
    using A = typename R::accumulator_type;
    const auto root = tree.root(R::identity());
    if (out != nullptr) out[segment] = r.finish(fixed_order::result<P, A>(root));
    else partial[k] = root;
}

// Contiguous layouts only (stride 1): a warp's lanes read 32 neighbouring elements.
template <precision P, class R>
struct fixed_team_fold : job_io<fixed_order::value_t<P, typename R::accumulator_type>, typename R::result_type> {
    using A = typename R::accumulator_type;
    using V = fixed_order::value_t<P, A>;
    static constexpr std::uint64_t lanes = fixed_order::lanes;
    source_t<R> src;
    R r;
    segment_layout L;
    int warps;
    // Team scratch: one value per thread (the lanes), then one per warp (its block value).
    KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(int warps) { return sizeof(V) * static_cast<std::size_t>(warps) * (lanes + 1); }

    template <class Member>
    KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
        const auto k = static_cast<std::uint64_t>(m.league_rank());
        const job_run job = this->J.at(L, k);
        const auto x = segment_start(src, L, job.segment);
        V* lane_values = static_cast<V*>(m.team_shmem().get_shmem(scratch_bytes(warps)));
        V* block_values = lane_values + static_cast<std::size_t>(warps) * lanes;
        const auto t = static_cast<std::uint64_t>(m.team_rank());
        const std::uint64_t w = t / lanes, lane = t % lanes, W = static_cast<std::uint64_t>(warps);
        const std::uint64_t first_block = job.first / fixed_order::block;
        const std::uint64_t blocks = fixed_order::block_count(job.last - job.first);
        fixed_order::streaming_tree<P, A> tree(blocks);  // the first thread's
        for (std::uint64_t round = 0; round < blocks; round += W) {
            const std::uint64_t b = round + w;
            V v = fixed_order::zero<P, A>(R::identity());
            if (b < blocks) {
                const std::uint64_t begin = (first_block + b) * fixed_order::block;
                const std::uint64_t end = job.last - begin < fixed_order::block ? job.last : begin + fixed_order::block;
                std::uint64_t i = begin + lane;
                // Rows of `ahead` loads issued before their additions, which stay in order: the
                // lane's chain of additions then waits on memory once a row, not once an element.
                constexpr std::uint64_t ahead = 8;
                for (; i + (ahead - 1) * lanes < end; i += ahead * lanes) {
                    A row[ahead];
                    for (std::uint64_t u = 0; u < ahead; ++u)
                        row[u] = r.lift(x[static_cast<std::size_t>(i + u * lanes)], static_cast<std::size_t>(i + u * lanes));
                    for (std::uint64_t u = 0; u < ahead; ++u) fixed_order::add<P, A>(v, row[u]);
                }
                for (; i < end; i += lanes)
                    fixed_order::add<P, A>(v, r.lift(x[static_cast<std::size_t>(i)], static_cast<std::size_t>(i)));
            }
            lane_values[t] = v;
            m.team_barrier();
            if (lane == 0 && b < blocks) {
                V* mine = lane_values + w * lanes;
                for (std::uint64_t step = lanes / 2; step > 0; step /= 2)
                    for (std::uint64_t j = 0; j < step; ++j) mine[j] = fixed_order::merge<P, A>(mine[j], mine[j + step]);
                block_values[w] = mine[0];
            }
            m.team_barrier();
            if (t == 0)
                for (std::uint64_t u = 0; u < W && round + u < blocks; ++u) tree.push(block_values[u]);
        }
        if (t == 0) fixed_deliver<P>(r, tree, k, job.segment, this->partial, this->out);
    }
};

// Any layout: the thread reads its job's blocks one at a time, 32 lanes in registers.
template <precision P, class R>
struct fixed_thread_fold : job_io<fixed_order::value_t<P, typename R::accumulator_type>, typename R::result_type> {
    using A = typename R::accumulator_type;
    using V = fixed_order::value_t<P, A>;
    source_t<R> src;
    R r;
    segment_layout L;
    KOKKOS_INLINE_FUNCTION void operator()(std::int64_t index) const {
        const auto k = static_cast<std::uint64_t>(index);
        const job_run job = this->J.at(L, k);
        const auto n = static_cast<std::size_t>(L.length(job.segment));
        const auto x = segment_start(src, L, job.segment);
        const ::preduce::detail::strided_source<source_t<R>> strided{x, static_cast<std::size_t>(L.stride())};
        if (this->out != nullptr && n <= fixed_order::lanes) {  // a whole segment of one row
            const V v = L.stride() == 1 ? fixed_order::short_value<P>(r, x, n) : fixed_order::short_value<P>(r, strided, n);
            this->out[job.segment] = r.finish(fixed_order::result<P, A>(v));
            return;
        }
        const std::uint64_t first_block = job.first / fixed_order::block;
        const std::uint64_t blocks = fixed_order::block_count(job.last - job.first);
        fixed_order::streaming_tree<P, A> tree(blocks);
        for (std::uint64_t b = 0; b < blocks; ++b) {
            const auto block = static_cast<std::size_t>(first_block + b);
            tree.push(L.stride() == 1 ? fixed_order::block_value<P>(r, x, n, block)
                                      : fixed_order::block_value<P>(r, strided, n, block));
        }
        fixed_deliver<P>(r, tree, k, job.segment, this->partial, this->out);
    }
};

// A team per segment: its job trees loaded side by side into team scratch, then the tree
// over them a level at a time (fixed_order::block_tree's pairs, the odd last one moving up),
// one barrier a level. At most `most` jobs a segment (scratch_bytes(most) of scratch).
template <precision P, class R>
struct fixed_team_combine : job_io<const fixed_order::value_t<P, typename R::accumulator_type>, typename R::result_type> {
    using A = typename R::accumulator_type;
    static constexpr bool per_team = true;
    using V = fixed_order::value_t<P, A>;
    R r;
    std::uint64_t most;
    KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(std::uint64_t most) { return 2 * most * sizeof(V); }
    template <class Member>
    KOKKOS_INLINE_FUNCTION void operator()(const Member& m) const {
        const auto s = static_cast<std::uint64_t>(m.league_rank());
        const std::uint64_t start = this->J.start(s), step = this->J.step();
        const auto t = static_cast<std::uint64_t>(m.team_rank()), T = static_cast<std::uint64_t>(m.team_size());
        V* from = static_cast<V*>(m.team_shmem().get_shmem(scratch_bytes(most)));
        V* to = from + most;
        std::uint64_t count = this->J.jobs(s);
        for (std::uint64_t i = t; i < count; i += T) from[i] = this->partial[start + i * step];
        m.team_barrier();
        while (count > 1) {
            const std::uint64_t half = count / 2;
            for (std::uint64_t i = t; i < half; i += T) to[i] = fixed_order::merge<P, A>(from[2 * i], from[2 * i + 1]);
            if (count % 2 != 0 && t == 0) to[half] = from[count - 1];
            m.team_barrier();
            V* swap = from;
            from = to;
            to = swap;
            count = half + count % 2;
        }
        if (t == 0)
            this->out[s] = r.finish(fixed_order::result<P, A>(count == 0 ? fixed_order::zero<P, A>(R::identity()) : from[0]));
    }
};


} // namespace preduce::kokkos::detail
