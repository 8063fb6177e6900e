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
//                          the segments cut into jobs of similar size (so that one long
//                          segment still fills the device; for offsets, read on the host):
//                          a team per job, or a thread per job where the operation keeps
//                          operand order; partial results combined per segment
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
#include <string>
#include <vector>

#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/detail/algorithm/segment_layout.hpp"
#include "preduce/errors.hpp"
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
// finish late hold back little. The fixed order takes fewer, larger ones: a segment's job
// trees are joined in team scratch, at most fixed_jobs_most + 1 of them.
inline constexpr std::uint64_t jobs_wanted = 4096;
inline constexpr std::uint64_t fixed_jobs_most = 1024;
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

// Device memory for a call's jobs, partial results and result: one grow-only buffer per
// memory space, reused by every call (launch() runs one at a time), so that a call allocates
// nothing where an earlier one had room (cudaMalloc and cudaFree cost tens of microseconds,
// and cudaFree waits for the device). Freed by a Kokkos finalize hook; held through plain
// pointers, which have no destructor to run at exit, after Kokkos has finalized. Each Use
// (a tag type) has a buffer of its own, for arrays that must not overlap within a call: the
// jobs' arrays and partial results, and results on their way to host memory.
struct jobs_use;
struct results_use;
template <class MemSpace, class Use = jobs_use>
std::byte* workspace(std::size_t bytes) {
    static void* held = nullptr;
    static std::size_t room = 0;
    static bool hooked = false;
    if (room < bytes) {
        if (held != nullptr) Kokkos::kokkos_free<MemSpace>(held);
        held = nullptr, room = 0;
        const std::size_t want = bytes + bytes / 4;
        try {
            held = Kokkos::kokkos_malloc<MemSpace>("preduce::kokkos workspace", want);
        } catch (const std::exception& e) {
            throw out_of_memory(std::string("preduce::reduce(kokkos): cannot allocate ") + std::to_string(want) +
                                " bytes in " + MemSpace::name() + " (" + e.what() + ")");
        }
        room = want;
        if (!hooked) {
            Kokkos::push_finalize_hook([] {
                if (held != nullptr) Kokkos::kokkos_free<MemSpace>(held);
                held = nullptr, room = 0;
            });
            hooked = true;
        }
    }
    return static_cast<std::byte*>(held);
}

// Carves arrays out of a workspace, each aligned to 16 bytes; size() first, then at().
class carving {
public:
    template <class T>
    std::size_t add(std::size_t n) {
        const std::size_t at = used_;
        used_ = (used_ + n * sizeof(T) + 15) / 16 * 16;
        return at;
    }
    std::size_t size() const { return used_; }

private:
    std::size_t used_ = 0;
};

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

// Segment lengths on the host, for cutting jobs (few segments by offsets), from `offsets`:
// L's, or the same values where the caller has them (read in place unless device memory).
inline std::vector<std::uint64_t> host_lengths(const segment_layout& L, const std::uint64_t* given) {
    const host_readable<std::uint64_t> offsets(given != nullptr ? given : L.offsets, L.count + 1);
    std::vector<std::uint64_t> lengths(L.count);
    for (std::uint64_t s = 0; s < L.count; ++s) lengths[s] = offsets.get()[s + 1] - offsets.get()[s];
    return lengths;
}

// How one call's jobs run: a team or a thread per job, and, where jobs are not whole
// segments, a team or a thread per segment to combine their partial results.
struct job_plan {
    jobs_view J;
    std::uint64_t jobs = 0;
    bool teams = false;
    int team_size = 1;
    std::size_t scratch = 0;
    const job_table* table = nullptr;  // the table form's arrays, to upload
    std::uint64_t most = 0;            // jobs of a segment at most (the fixed order's team combine)
};

// Uploads the plan's table, runs the job kernel, then the combine kernel (a team or a thread
// per segment, as Combine::per_team says; not for whole segments); out in device memory.
template <class ExecSpace, class Partial, class TeamFold, class ThreadFold, class Combine, class Out>
void run_jobs(const segment_layout& L, job_plan plan, TeamFold team_fold, ThreadFold thread_fold, Combine combine,
              std::size_t combine_scratch, Out* out) {
    using mem = typename ExecSpace::memory_space;
    const bool whole = plan.J.form == job_form::whole;
    carving c;
    const std::size_t at_partial = c.add<Partial>(whole ? 0 : plan.jobs);
    const std::size_t at_table = c.add<std::uint64_t>(plan.table ? 3 * plan.table->size() + L.count + 1 : 0);
    std::byte* base = workspace<mem>(c.size());
    Partial* partial = whole ? nullptr : reinterpret_cast<Partial*>(base + at_partial);
    if (plan.table != nullptr) {
        const job_table& t = *plan.table;
        std::vector<std::uint64_t> packed;
        packed.reserve(3 * t.size() + L.count + 1);
        for (const auto* v : {&t.segment, &t.first, &t.last, &t.first_job}) packed.insert(packed.end(), v->begin(), v->end());
        auto* d = reinterpret_cast<std::uint64_t*>(base + at_table);
        Kokkos::deep_copy(Kokkos::View<std::uint64_t*, mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(d, packed.size()),
                          Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                              packed.data(), packed.size()));
        plan.J.segment = d, plan.J.first = d + t.size(), plan.J.last = d + 2 * t.size(), plan.J.first_job = d + 3 * t.size();
    }
    Out* direct = whole ? out : nullptr;  // job kernels write results only for whole segments
    if (plan.jobs != 0) {
        if (plan.teams) {
            team_fold.J = plan.J, team_fold.partial = partial, team_fold.out = direct;
            auto policy = team_policy<ExecSpace>(static_cast<std::int64_t>(plan.jobs), plan.team_size);
            if (plan.scratch != 0) policy.set_scratch_size(0, Kokkos::PerTeam(plan.scratch));
            Kokkos::parallel_for("preduce::kokkos::reduce_segments", policy, team_fold);
        } else {
            thread_fold.J = plan.J, thread_fold.partial = partial, thread_fold.out = direct;
            Kokkos::parallel_for("preduce::kokkos::reduce_segments",
                                 policy<ExecSpace>(0, static_cast<std::int64_t>(plan.jobs)), thread_fold);
        }
    }
    if (!whole) {
        combine.J = plan.J, combine.partial = partial, combine.out = out;
        const auto segments = static_cast<std::int64_t>(L.count);
        if constexpr (Combine::per_team) {
            auto policy = team_policy<ExecSpace>(segments, segment_tuning::team_threads / 2);
            if (combine_scratch != 0) policy.set_scratch_size(0, Kokkos::PerTeam(combine_scratch));
            Kokkos::parallel_for("preduce::kokkos::reduce_segments (combine)", policy, combine);
        } else {
            Kokkos::parallel_for("preduce::kokkos::reduce_segments (combine)", policy<ExecSpace>(0, segments), combine);
        }
    }
    ExecSpace().fence();
}

// Reduces every segment of L over src (both readable on the device, offsets checked) into
// out (device memory), in order P. n: the data's length. given_offsets: the offsets as the
// caller gave them, where L's are a device copy of host offsets (else null).
template <precision P, class ExecSpace, class R>
void device_segments(const R& r, source_t<R> src, std::size_t n, const segment_layout& L, typename R::result_type* out,
                     const std::uint64_t* given_offsets = nullptr) {
    using A = typename R::accumulator_type;
    using V = fixed_order::value_t<P, A>;
    namespace tune = segment_tuning;
    using ::preduce::detail::segment_form;
    const std::uint64_t m = L.count;
    if (m == 0) return;
    constexpr bool fast = P == precision::fast;
    constexpr bool in_order = !is_commutative_v<R>;
    constexpr std::uint64_t block = fixed_order::block;
    constexpr int lanes = static_cast<int>(fixed_order::lanes);
    const auto threads = static_cast<std::uint64_t>(ExecSpace().concurrency());

    const auto go = [&](job_plan plan) {
        if constexpr (fast && in_order)
            run_jobs<ExecSpace, A>(L, plan, fast_team_fold<R>{{}, src, r, L}, fast_thread_fold<R>{{}, src, r, L},
                                   fast_combine<R>{{}, r}, 0, out);
        else if constexpr (fast)
            run_jobs<ExecSpace, A>(L, plan, fast_team_fold<R>{{}, src, r, L}, fast_thread_fold<R>{{}, src, r, L},
                                   fast_team_combine<R>{{}, r}, 0, out);
        else
            run_jobs<ExecSpace, V>(L, plan, fixed_team_fold<P, R>{{}, src, r, L, plan.team_size / lanes},
                                   fixed_thread_fold<P, R>{{}, src, r, L}, fixed_team_combine<P, R>{{}, r, plan.most},
                                   fixed_team_combine<P, R>::scratch_bytes(plan.most), out);
    };
    // Segments of one size cut into bands of `band` elements (the whole segment: no bands).
    const auto bands = [&](std::uint64_t size, std::uint64_t band) {
        job_plan plan;
        if (band < size) {
            plan.J.form = job_form::bands, plan.J.count = m, plan.J.size = size, plan.J.band = band;
            plan.most = div_up(size, band);
        }
        plan.jobs = m * (band < size ? div_up(size, band) : 1);
        return plan;
    };
    // Elements per job: the fast order's (a team's, or a thread's folding in order), or the
    // fixed order's (a power-of-two number of blocks).
    const auto run_for = [&](std::uint64_t elements) -> std::uint64_t {
        if constexpr (!fast) return block * std::bit_ceil(std::max<std::uint64_t>(1, div_up(elements, tune::fixed_jobs_most * block)));
        else if constexpr (in_order) return std::max(tune::thread_run, div_up(elements, threads));
        else return std::max(tune::team_run, div_up(elements, tune::jobs_wanted));
    };
    const int fixed_team = tune::fixed_warps * lanes;
    const std::size_t fixed_scratch = fixed_team_fold<P, R>::scratch_bytes(tune::fixed_warps);

    if (L.form == segment_form::strided) {
        // A thread per band of rows, as many bands as fill the device with threads; for the
        // fixed order a band is a power-of-two number of blocks, at most fixed_jobs_most bands.
        const std::uint64_t size = L.size;
        std::uint64_t band = size;
        if constexpr (fast) {
            const std::uint64_t pieces = std::min(div_up(threads, m), div_up(size, tune::thread_run));
            if (pieces > 1) band = div_up(size, pieces);
        } else {
            const std::uint64_t blocks = fixed_order::block_count(size);
            const std::uint64_t pieces = std::min({div_up(threads, m), blocks, tune::fixed_jobs_most});
            if (pieces > 1) band = block * std::bit_ceil(div_up(blocks, pieces));
        }
        go(bands(size, band));
        return;
    }

    if (m <= tune::few_segments) {
        // Jobs of similar size: team jobs (thread jobs for an operation that keeps operand order).
        job_plan plan;
        std::optional<job_table> table;
        if (L.form == segment_form::fixed) {
            plan = bands(L.size, run_for(L.size * m));
        } else {
            const std::vector<std::uint64_t> lengths = host_lengths(L, given_offsets);
            std::uint64_t elements = 0, longest = 0;
            for (const std::uint64_t len : lengths) elements += len, longest = std::max(longest, len);
            const std::uint64_t run = run_for(elements);
            table.emplace(lengths, run);
            plan.J.form = job_form::table;
            plan.table = &*table;
            plan.jobs = table->size();
            plan.most = div_up(longest, run);
        }
        plan.teams = !fast || !in_order;
        plan.team_size = fast ? tune::team_threads : fixed_team;
        plan.scratch = fast ? 0 : fixed_scratch;
        go(plan);
        return;
    }

    const std::uint64_t mean = n / m;
    if constexpr (fast && !in_order) {
        // Vector lanes per segment: the largest power of two up to the mean length, at most 32.
        const int vector = static_cast<int>(std::bit_floor(std::clamp<std::uint64_t>(mean, 1, 32)));
        const int per_team = tune::team_threads / vector;
        Kokkos::parallel_for("preduce::kokkos::reduce_segments",
                             team_policy<ExecSpace>(static_cast<std::int64_t>(div_up(m, per_team)), per_team, vector),
                             fast_lanes_fold<R>{src, r, L, out});
        ExecSpace().fence();
    } else {
        job_plan plan;  // whole segments
        plan.jobs = m;
        if (!fast && mean >= tune::fixed_thread_below) {
            const auto warps = static_cast<int>(std::bit_floor(
                std::clamp<std::uint64_t>(div_up(mean, block), 1, static_cast<std::uint64_t>(tune::fixed_warps))));
            plan.teams = true;
            plan.team_size = warps * lanes;
            plan.scratch = fixed_team_fold<P, R>::scratch_bytes(warps);
        }
        go(plan);
    }
}

} // namespace preduce::kokkos::detail
