#pragma once
// How many-results work is cut for a device execution space (device_segments.hpp): each
// segment is read by one or more jobs, each job folds a run [first, last) of the segment's
// elements (positions inside the segment), and a segment whose work is cut into several
// jobs gets its result from their partial results, combined in job order. Three ways to
// name the jobs, each addressable from device code:
//
//   whole   job s is all of segment s (no partial results: the job writes the result)
//   table   arrays built on the host (few segments: their offsets are read there): job k
//           is segment[k]'s run [first[k], last[k]); segment s owns jobs
//           [first_job[s], first_job[s + 1])
//   bands   segments of one size cut into bands of `band` elements: job k is band k / count
//           of segment k % count, so that neighbouring jobs read neighbouring columns of a
//           strided layout; segment s owns jobs s, s + count, s + 2 count, ...
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "preduce/detail/algorithm/segment_layout.hpp"

namespace preduce::kokkos::detail {

struct job_run {
    std::uint64_t segment;
    std::uint64_t first;  // positions inside the segment
    std::uint64_t last;
};

enum class job_form : unsigned char { whole, table, bands };

struct jobs_view {
    job_form form = job_form::whole;
    // table
    const std::uint64_t* segment = nullptr;
    const std::uint64_t* first = nullptr;
    const std::uint64_t* last = nullptr;
    const std::uint64_t* first_job = nullptr;
    // bands
    std::uint64_t count = 0;
    std::uint64_t size = 0;
    std::uint64_t band = 1;

    KOKKOS_INLINE_FUNCTION job_run at(const ::preduce::detail::segment_layout& L, std::uint64_t k) const {
        switch (form) {
        case job_form::whole: return {k, 0, L.length(k)};
        case job_form::table: return {segment[k], first[k], last[k]};
        default: {
            const std::uint64_t b = k / count, begin = b * band;
            return {k % count, begin, size - begin < band ? size : begin + band};
        }
        }
    }
    // Segment s's jobs: `jobs` of them, from job `start`, `step` apart.
    KOKKOS_INLINE_FUNCTION std::uint64_t start(std::uint64_t s) const { return form == job_form::table ? first_job[s] : s; }
    KOKKOS_INLINE_FUNCTION std::uint64_t jobs(std::uint64_t s) const {
        switch (form) {
        case job_form::whole: return 1;
        case job_form::table: return first_job[s + 1] - first_job[s];
        default: return size / band + (size % band != 0);
        }
    }
    KOKKOS_INLINE_FUNCTION std::uint64_t step() const { return form == job_form::bands ? count : 1; }
};

// The table of jobs of at most `run` elements each (run > 0) over segments of the given
// lengths, built on the host; an empty segment has no job.
struct job_table {
    std::vector<std::uint64_t> segment, first, last, first_job;

    job_table(const std::vector<std::uint64_t>& lengths, std::uint64_t run) {
        first_job.reserve(lengths.size() + 1);
        for (std::uint64_t s = 0; s < lengths.size(); ++s) {
            first_job.push_back(segment.size());
            for (std::uint64_t begin = 0; begin < lengths[s]; begin += run) {
                segment.push_back(s);
                first.push_back(begin);
                last.push_back(lengths[s] - begin < run ? lengths[s] : begin + run);
            }
        }
        first_job.push_back(segment.size());
    }
    std::uint64_t size() const { return segment.size(); }
};

} // namespace preduce::kokkos::detail
