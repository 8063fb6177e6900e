#pragma once
// Latency rows (CPU and GPU benchmarks alike): host wall clock around whole calls, one
// sample per iteration, and the median sample as the counter median_us. The mean Google
// Benchmark reports beside it counts the rare slow call (a page fault, a preempted thread) in
// full; the median is what a caller in a loop typically waits.
//
// A sample, and the candidates timed in turn: src/timing/interleaved_samples.hpp, which
// preduce --calibrate shares.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "interleaved_samples.hpp"

namespace preduce_bench {

using preduce_timing::calls_a_sample;
using preduce_timing::candidate;
using preduce_timing::seconds_of;
using preduce_timing::shortest_of_three;

// Times call(i) for i = 0, 1, ... on the host clock (three warm-up calls first, untimed, then
// three to size the samples); bytes is what one call reads (bytes_per_second).
template <class Call>
void time_calls(benchmark::State& st, std::size_t bytes, Call&& call) {
    std::size_t i = 0;
    for (int w = 0; w < 3; ++w) call(i++);
    const std::size_t per_sample = calls_a_sample(shortest_of_three(call, i));
    std::vector<double> us;
    us.reserve(static_cast<std::size_t>(st.max_iterations));
    for (auto _ : st) {
        const double s = seconds_of(call, i, per_sample) / static_cast<double>(per_sample);
        st.SetIterationTime(s);
        us.push_back(s * 1e6);
    }
    st.counters["calls_a_sample"] = static_cast<double>(per_sample);
    if (us.empty()) return;
    st.counters["median_us"] = preduce_timing::median_of(us);
    st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(bytes));
}

// Several candidates timed side by side (preduce_timing::interleaved_samples), a round of
// samples an iteration; the row reports each candidate's median as the counter "<name>_us".
// For comparisons within a few percent (backend::automatic against every backend).
template <class Call>
void time_interleaved(benchmark::State& st, std::size_t bytes, std::vector<candidate<Call>>& candidates) {
    preduce_timing::interleaved_samples<Call> samples(candidates);
    for (auto _ : st) st.SetIterationTime(samples.round());
    if (st.iterations() > 0) {
        const std::vector<double> s = samples.medians();
        for (std::size_t c = 0; c < candidates.size(); ++c) st.counters[candidates[c].name + "_us"] = s[c] * 1e6;
    }
    st.counters["calls_a_sample"] = static_cast<double>(samples.calls_a_sample());
    st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) *
                         static_cast<std::int64_t>(bytes * candidates.size()));
}

// Samples per latency row: up to 200, fewer where one call is long (about `budget_s` a row),
// at least 10. seconds_per_call is the caller's estimate.
inline std::int64_t calls_within(double seconds_per_call, double budget_s = 0.4) {
    return std::clamp<std::int64_t>(static_cast<std::int64_t>(budget_s / seconds_per_call), 10, 200);
}

} // namespace preduce_bench
