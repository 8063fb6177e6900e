#pragma once
// Latency rows (CPU and GPU benchmarks alike): host wall clock around whole calls, one
// sample per iteration, and the median sample as the counter median_us. The mean Google
// Benchmark reports beside it counts the rare slow call (a page fault, a preempted thread) in
// full; the median is what a caller in a loop typically waits.
//
// A sample is one call, or, where one call is shorter than a microsecond, that many calls back
// to back divided by their number (calls_a_sample, reported as the counter of that name): two
// clock reads cost 20-30 ns on a 2-core x86 VM and its clock counts in steps of ~10 ns, which
// would otherwise be a third of a 0.05 us call, and the same for every candidate of a row.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace preduce_bench {

// Seconds of `calls` back-to-back calls of call(i), call(i+1), ... on the host clock (i advances).
template <class Call>
double seconds_of(Call& call, std::size_t& i, std::size_t calls) {
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t k = 0; k < calls; ++k) call(i++);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The shortest of three single calls (clock reads included), in seconds.
template <class Call>
double shortest_of_three(Call& call, std::size_t& i) {
    double s = seconds_of(call, i, 1);
    for (int w = 0; w < 2; ++w) s = std::min(s, seconds_of(call, i, 1));
    return s;
}

// Calls a sample, from the shortest single call seen: enough to span a microsecond, at most 64.
inline std::size_t calls_a_sample(double shortest_call_s) {
    return static_cast<std::size_t>(std::clamp(std::ceil(1e-6 / shortest_call_s), 1.0, 64.0));
}

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
    std::nth_element(us.begin(), us.begin() + static_cast<std::ptrdiff_t>(us.size() / 2), us.end());
    st.counters["median_us"] = us[us.size() / 2];
    st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(bytes));
}

// Several candidates timed side by side: every iteration takes a sample of each, in an order drawn
// afresh each time (so none always runs first, and none always runs after the same one: a
// call can leave the caches, the driver or the host's threads busy for the next), and the
// row reports each candidate's median sample as the counter "<name>_us". For comparisons
// within a few percent (backend::automatic against every backend) on a machine whose speed
// drifts over seconds.
template <class Call>
struct candidate {
    std::string name;
    Call call;  // call(i): one call on the i-th input
};
template <class Call>
void time_interleaved(benchmark::State& st, std::size_t bytes, std::vector<candidate<Call>>& candidates) {
    const std::size_t k = candidates.size();
    std::size_t i = 0;
    for (auto& c : candidates)
        for (int w = 0; w < 2; ++w) c.call(i++);
    // One sample size for all candidates, from the fastest: each sample then spans about the
    // same number of calls of every candidate.
    double shortest = std::numeric_limits<double>::infinity();
    for (auto& c : candidates) shortest = std::min(shortest, shortest_of_three(c.call, i));
    const std::size_t per_sample = calls_a_sample(shortest);
    std::vector<std::vector<double>> us(k);
    std::vector<std::size_t> order(k);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::minstd_rand draw(20261204u);  // the same orders in every run
    for (auto _ : st) {
        std::shuffle(order.begin(), order.end(), draw);
        double total = 0;
        for (const std::size_t c : order) {
            const double s = seconds_of(candidates[c].call, i, per_sample) / static_cast<double>(per_sample);
            us[c].push_back(s * 1e6);
            total += s;
        }
        st.SetIterationTime(total);
    }
    for (std::size_t c = 0; c < k; ++c) {
        auto& v = us[c];
        if (v.empty()) continue;
        std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
        st.counters[candidates[c].name + "_us"] = v[v.size() / 2];
    }
    st.counters["calls_a_sample"] = static_cast<double>(per_sample);
    st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(bytes * k));
}

// Samples per latency row: up to 200, fewer where one call is long (about `budget_s` a row),
// at least 10. seconds_per_call is the caller's estimate.
inline std::int64_t calls_within(double seconds_per_call, double budget_s = 0.4) {
    return std::clamp<std::int64_t>(static_cast<std::int64_t>(budget_s / seconds_per_call), 10, 200);
}

} // namespace preduce_bench
