#pragma once
// Many results on a device execution space (Kokkos::Cuda): every segment is reduced on the
// device, the fast order and the fixed order alike (device_segment_folds.hpp has the
// kernels, device_jobs.hpp the ways to cut the work). The shape of the work follows the
// layout:
//
//   strided (columns)      one thread per band of rows of a column, neighbouring threads on
//                          neighbouring columns; bands combined per column when there are
//                          too few columns to fill the device
//   contiguous, few (<= segment_tuning::few_segments) segments
//                          the offsets are read on the host and the segments cut into jobs
//                          of similar size (so that one long segment still fills the
//                          device): a team per job, or a thread per job where the operation
//                          keeps operand order; partial results combined per segment
//   contiguous, many       a segment per thread, split over vector lanes for the fast order
//                          of commutative operations; for the fixed order a team of warps
//                          per segment, or a thread per segment where segments are short
//
// Offsets in device memory are checked on the device; the error names the first wrong
// entry, as the host's check does.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/detail/algorithm/segment_layout.hpp"
#include "preduce/kokkos/detail/device_jobs.hpp"
#include "preduce/kokkos/detail/device_segment_folds.hpp"
#include "preduce/kokkos/detail/space.hpp"
#include "preduce/kokkos/detail/stage.hpp"
#include "preduce/precision.hpp"
#include "preduce/reducers.hpp"
#include "preduce/source.hpp"

namespace preduce::kokkos::detail {

namespace segment_tuning {
// At most this many segments: their offsets (count + 1 entries) are read on the host to cut
// the jobs.
inline constexpr std::uint64_t few_segments = std::uint64_t{1} << 14;
// Jobs for the whole input, about: a few waves of teams on a 132-SM GPU, so that teams that
// finish late hold back little.
inline constexpr std::uint64_t jobs_wanted = 4096;
// Elements per job at least: a team's (256 threads reading 16 each), and a thread's that
// folds in order.
inline constexpr std::uint64_t team_run = 4096;
inline constexpr std::uint64_t thread_run = 1024;
inline constexpr int team_threads = 256;
// The fixed order: warps per team at most, and the mean segment length below which a thread
// per segment (32 lanes in registers) beats a warp per segment.
inline constexpr int fixed_warps = 8;
inline constexpr std::uint64_t fixed_thread_below = 64;
} // namespace segment_tuning

inline std::uint64_t div_up(std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0); }

template <class T, class MemSpace>
Kokkos::View<T*, MemSpace> upload(const std::vector<T>& v, const char* label) {
    auto d = allocate<T, MemSpace>(v.size(), label);
    if (!v.empty())
        Kokkos::deep_copy(d, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(v.data(), v.size()));
    return d;
}

struct offsets_check_functor {
    const std::uint64_t* offsets;
    std::uint64_t n;
    KOKKOS_INLINE_FUNCTION void operator()(std::int64_t s, std::int64_t& first_wrong) const {
        const bool wrong = offsets[s] > n || (s > 0 && offsets[s] < offsets[s - 1]);
        if (wrong && s < first_wrong) first_wrong = s;
    }
};

// The host check (segment_layout.hpp) of m + 1 offsets in device memory, run on the device.
template <class ExecSpace>
void check_device_offsets(const std::uint64_t* offsets, std::uint64_t m, std::uint64_t n) {
    std::int64_t first_wrong = std::numeric_limits<std::int64_t>::max();
    Kokkos::parallel_reduce("preduce::kokkos::check_offsets", policy<ExecSpace>(0, static_cast<std::int64_t>(m + 1)),
                            offsets_check_functor{offsets, n}, Kokkos::Min<std::int64_t>(first_wrong));
    if (first_wrong > static_cast<std::int64_t>(m)) return;
    const auto s = static_cast<std::uint64_t>(first_wrong);
    std::uint64_t entries[2] = {0, 0};  // entry s - 1 (0 before the first), entry s
    const std::uint64_t from = s == 0 ? 0 : s - 1, count = s == 0 ? 1 : 2;
    Kokkos::deep_copy(Kokkos::View<std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                          entries + (2 - count), count),
                      unmanaged_view<std::uint64_t, typename ExecSpace::memory_space>(offsets + from, count));
    ::preduce::detail::check_offset_entry(s, entries[0], entries[1], n);
}

// Segment lengths on the host, for cutting jobs (few segments, contiguous layouts).
inline std::vector<std::uint64_t> host_lengths(const segment_layout& L) {
    std::vector<std::uint64_t> lengths(L.count, L.size);
    if (L.form == ::preduce::detail::segment_form::offsets) {
        const host_readable<std::uint64_t> offsets(L.offsets, L.count + 1);
        for (std::uint64_t s = 0; s < L.count; ++s) lengths[s] = offsets.get()[s + 1] - offsets.get()[s];
    }
    return lengths;
}

// The job kernel (a team per job when `teams`, else a thread per job), then the combine
// kernel when the jobs are not whole segments.
template <class ExecSpace, class TeamFold, class ThreadFold, class Combine, class Partial, class Out>
void run_jobs(const segment_layout& L, const jobs_view& J, std::uint64_t jobs, bool teams, int team_size,
              std::size_t scratch, TeamFold team_fold, ThreadFold thread_fold, Combine combine, Out* out) {
    using mem = typename ExecSpace::memory_space;
    const bool whole = J.form == job_form::whole;
    Kokkos::View<Partial*, mem> partial;
    if (!whole) partial = allocate<Partial, mem>(jobs, "preduce::kokkos partial results");
    Partial* p = whole ? nullptr : partial.data();
    Out* direct = whole ? out : nullptr;
    if (jobs != 0) {
        if (teams) {
            team_fold.J = J, team_fold.partial = p, team_fold.out = direct;
            auto policy = team_policy<ExecSpace>(static_cast<std::int64_t>(jobs), team_size);
            if (scratch != 0) policy.set_scratch_size(0, Kokkos::PerTeam(scratch));
            Kokkos::parallel_for("preduce::kokkos::reduce_segments", policy, team_fold);
        } else {
            thread_fold.J = J, thread_fold.partial = p, thread_fold.out = direct;
            Kokkos::parallel_for("preduce::kokkos::reduce_segments", policy<ExecSpace>(0, static_cast<std::int64_t>(jobs)),
                                 thread_fold);
        }
    }
    if (!whole) {
        combine.J = J, combine.partial = p, combine.out = out;
        Kokkos::parallel_for("preduce::kokkos::reduce_segments (combine)",
                             policy<ExecSpace>(0, static_cast<std::int64_t>(L.count)), combine);
    }
    ExecSpace().fence();
}

// Reduces every segment of L over src (both readable on the device, offsets checked) into
// out (device memory), in order P. n: the data's length.
template <precision P, class ExecSpace, class R>
void device_segments(const R& r, source_t<R> src, std::size_t n, const segment_layout& L, typename R::result_type* out) {
    using A = typename R::accumulator_type;
    using V = fixed_order::value_t<P, A>;
    using mem = typename ExecSpace::memory_space;
    namespace tune = segment_tuning;
    const std::uint64_t m = L.count;
    if (m == 0) return;
    constexpr bool fast = P == precision::fast;
    constexpr bool in_order = !is_commutative_v<R>;
    const auto threads = static_cast<std::uint64_t>(ExecSpace().concurrency());
    constexpr std::uint64_t block = fixed_order::block;

    // Each order's three kernels; run_jobs fills in the jobs and where results go.
    const auto go = [&](const jobs_view& J, std::uint64_t jobs, bool teams, int team_size, std::size_t scratch) {
        if constexpr (fast)
            run_jobs<ExecSpace, fast_team_fold<R>, fast_thread_fold<R>, fast_combine<R>, A>(
                L, J, jobs, teams, team_size, scratch, fast_team_fold<R>{src, r, L, {}, nullptr, nullptr},
                fast_thread_fold<R>{src, r, L, {}, nullptr, nullptr}, fast_combine<R>{r, {}, nullptr, nullptr}, out);
        else
            run_jobs<ExecSpace, fixed_team_fold<P, R>, fixed_thread_fold<P, R>, fixed_combine<P, R>, V>(
                L, J, jobs, teams, team_size, scratch,
                fixed_team_fold<P, R>{src, r, L, {}, nullptr, nullptr, team_size / static_cast<int>(fixed_order::lanes)},
                fixed_thread_fold<P, R>{src, r, L, {}, nullptr, nullptr}, fixed_combine<P, R>{r, {}, nullptr, nullptr}, out);
    };
    const auto fixed_scratch = [](int team_size) {
        return fixed_team_fold<P, R>::scratch_bytes(team_size / static_cast<int>(fixed_order::lanes));
    };

    if (L.form == ::preduce::detail::segment_form::strided) {
        // Bands of rows, as many as fill the device with threads; for the fixed order a band
        // is a power-of-two number of blocks.
        const std::uint64_t size = L.size;
        std::uint64_t band = size;
        if (fast) {
            const std::uint64_t bands = std::min(div_up(threads, m), div_up(size, tune::thread_run));
            if (bands > 1) band = div_up(size, bands);
        } else {
            const std::uint64_t blocks = fixed_order::block_count(size);
            const std::uint64_t bands = std::min(div_up(threads, m), blocks);
            if (bands > 1) band = block * std::bit_ceil(div_up(blocks, bands));
        }
        jobs_view J;
        std::uint64_t jobs = m;
        if (band < size) {
            J.form = job_form::bands, J.count = m, J.size = size, J.band = band;
            jobs = m * div_up(size, band);
        }
        go(J, jobs, false, 1, 0);
        return;
    }

    if (m <= tune::few_segments) {
        const std::vector<std::uint64_t> lengths = host_lengths(L);
        std::uint64_t elements = 0;
        for (const std::uint64_t len : lengths) elements += len;
        const std::uint64_t share = div_up(elements, tune::jobs_wanted);
        const bool teams = !fast || !in_order;
        const std::uint64_t run = !fast     ? block * std::bit_ceil(div_up(share, block))
                                  : teams ? std::max(tune::team_run, share)
                                          : std::max(tune::thread_run, div_up(elements, threads));
        const job_table table(lengths, run);
        const auto segment = upload<std::uint64_t, mem>(table.segment, "preduce::kokkos jobs");
        const auto first = upload<std::uint64_t, mem>(table.first, "preduce::kokkos jobs");
        const auto last = upload<std::uint64_t, mem>(table.last, "preduce::kokkos jobs");
        const auto first_job = upload<std::uint64_t, mem>(table.first_job, "preduce::kokkos jobs");
        jobs_view J;
        J.form = job_form::table, J.segment = segment.data(), J.first = first.data(), J.last = last.data();
        J.first_job = first_job.data();
        const int team_size = fast ? tune::team_threads : tune::fixed_warps * static_cast<int>(fixed_order::lanes);
        go(J, table.size(), teams, team_size, fast ? 0 : fixed_scratch(team_size));
        return;
    }

    const std::uint64_t mean = n / m;
    if constexpr (fast && !in_order) {
        // Vector lanes per segment: the largest power of two up to the mean length, at most 32.
        const int lanes = static_cast<int>(std::bit_floor(std::clamp<std::uint64_t>(mean, 1, 32)));
        const int per_team = tune::team_threads / lanes;
        Kokkos::parallel_for("preduce::kokkos::reduce_segments",
                             team_policy<ExecSpace>(static_cast<std::int64_t>(div_up(m, per_team)), per_team, lanes),
                             fast_lanes_fold<R>{src, r, L, out});
        ExecSpace().fence();
    } else if (fast || mean < tune::fixed_thread_below) {
        go(jobs_view{}, m, false, 1, 0);
    } else {
        const auto warps = static_cast<int>(
            std::bit_floor(std::clamp<std::uint64_t>(div_up(mean, block), 1, static_cast<std::uint64_t>(tune::fixed_warps))));
        const int team_size = warps * static_cast<int>(fixed_order::lanes);
        go(jobs_view{}, m, true, team_size, fixed_scratch(team_size));
    }
}

} // namespace preduce::kokkos::detail
