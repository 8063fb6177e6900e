#pragma once
// Host wall-clock samples of calls, for the benchmark's latency rows and for `preduce
// --calibrate`, which must measure a call the same way for automatic's choices to hold in the
// benchmark's grid. Not part of the library.
//
// A sample is one call, or, where one call is shorter than a microsecond, that many calls
// back to back divided by their number (calls_a_sample): the two clock reads around a sample,
// and the clock's coarse steps, would otherwise be a large part of a call that short
// (docs/front-end-costs.md). A call is call(i) with i = 0, 1, 2, ...: the i-th input, so that
// callers can give each call memory the last calls did not read.
//
// interleaved_samples times several candidates side by side: each round takes a sample of
// each, in an order drawn afresh every round (so none always runs first, and none always runs
// after the same one: a call can leave the caches, the driver or the host's threads busy for
// the next), all of them with one sample size, sized from the fastest. For comparisons within
// a few percent on a machine whose speed drifts over seconds.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace preduce_timing {

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

// The median of v (the upper one of an even count); v is reordered. 0 for none.
inline double median_of(std::vector<double>& v) {
    if (v.empty()) return 0;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

template <class Call>
struct candidate {
    std::string name;
    Call call;  // call(i): one call on the i-th input
};

template <class Call>
class interleaved_samples {
public:
    // Two untimed calls of each candidate, then three of each to size the samples. The
    // candidates must outlive this object.
    explicit interleaved_samples(std::vector<candidate<Call>>& candidates)
        : candidates_(candidates), seconds_(candidates.size()), order_(candidates.size()) {
        for (auto& c : candidates_)
            for (int w = 0; w < 2; ++w) c.call(i_++);
        double shortest = std::numeric_limits<double>::infinity();
        for (auto& c : candidates_) {
            const double s = shortest_of_three(c.call, i_);
            shortest = std::min(shortest, s);
            longest_ = std::max(longest_, s);
        }
        per_sample_ = preduce_timing::calls_a_sample(shortest);
        std::iota(order_.begin(), order_.end(), std::size_t{0});
    }

    // One sample of every candidate, in a fresh order; returns the seconds of the round's calls.
    double round() {
        std::shuffle(order_.begin(), order_.end(), draw_);
        double total = 0;
        for (const std::size_t c : order_) {
            const double s = seconds_of(candidates_[c].call, i_, per_sample_);
            seconds_[c].push_back(s / static_cast<double>(per_sample_));
            total += s;
        }
        return total;
    }

    // Each candidate's median seconds a call, in the candidates' order (0 before any round).
    std::vector<double> medians() {
        std::vector<double> m;
        for (auto& s : seconds_) m.push_back(median_of(s));
        return m;
    }

    std::size_t calls_a_sample() const { return per_sample_; }
    // The slowest candidate's shortest single call seen while sizing, in seconds.
    double slowest_call() const { return longest_; }

private:
    std::vector<candidate<Call>>& candidates_;
    std::vector<std::vector<double>> seconds_;  // per candidate, a call's seconds in each sample
    std::vector<std::size_t> order_;
    std::minstd_rand draw_{20261204u};  // the same orders in every run
    std::size_t i_ = 0;
    std::size_t per_sample_ = 1;
    double longest_ = 0;
};

} // namespace preduce_timing
