#pragma once
// The timing every mode shares: a warm-up call (page faults, thread pool start-up), then
// `repeat` timed calls whose median is reported, since the median ignores the odd run
// disturbed by the rest of the machine.
#include <algorithm>
#include <chrono>
#include <vector>

namespace preduce_cli {

inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// Median seconds of `repeat` calls of call(), after one untimed call.
template <class Call>
double median_seconds(int repeat, const Call& call) {
    call();
    std::vector<double> times;
    for (int i = 0; i < repeat; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        call();
        const auto t1 = std::chrono::steady_clock::now();
        times.push_back(std::chrono::duration<double>(t1 - t0).count());
    }
    return median(std::move(times));
}

} // namespace preduce_cli
