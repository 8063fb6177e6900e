// What backend::automatic costs a call over the backend it picks, on pageable host data in a
// process that has loaded CUDA (on the H200's host the automatic/ rows put auto 0.08-0.1 us
// over the best backend at 2^4-2^10 floats). Times, per call, in rounds that draw a fresh
// order each time (median of the rounds):
//   locate      detail::locate(p), the driver query every front-end call on host data makes
//   decide      detail::automatic_backend(p, bytes, sums, {}), automatic's choice alone
//   seq/openmp  preduce::reduce on that backend
//   auto        preduce::reduce(backend::automatic, ...)
// Build beside a GPU build (build-gpu/), linking what the GPU benchmark links:
//   g++ -O2 -std=c++20 -fopenmp -Iinclude -Ibuild-gpu/include -Isrc bench/studies/automatic_overhead.cpp \
//     <build-gpu's libpreduce.a and backend libraries, as preduce_bench_gpu links them> -o automatic_overhead
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "preduce/automatic.hpp"
#include "preduce/detail/residence.hpp"
#include "preduce/preduce.hpp"
#include "timing/interleaved_samples.hpp"

namespace {

volatile float sink;

struct candidate {
    std::string name;
    std::function<void()> call;
    std::vector<double> us;
};

} // namespace

int main() {
    std::vector<float> h(std::size_t{1} << 16);
    std::iota(h.begin(), h.end(), 1.0f);
    // Loads CUDA (libcuda), as any program that also reduces GPU data has.
    try {
        sink = preduce::reduce(preduce::backend::cuda, h.data(), 1024, preduce::sum);
    } catch (const std::exception& e) {
        std::printf("no CUDA here (%s): the numbers below are without the driver query\n", e.what());
    }
    std::mt19937 g(7);
    constexpr auto sums = preduce::operation_family::sums;
    constexpr int calls = 100, rounds = 2000;
    for (const std::size_t n : {std::size_t{16}, std::size_t{256}, std::size_t{1024}, std::size_t{4096}}) {
        const float* p = h.data();
        const std::size_t bytes = n * sizeof(float);
        std::vector<candidate> c;
        c.push_back({"locate", [=] { sink = static_cast<float>(preduce::detail::locate(p)); }, {}});
        c.push_back({"decide", [=] {
                         sink = static_cast<float>(preduce::detail::automatic_backend(p, bytes, sums, {}).chosen);
                     },
                     {}});
        for (const preduce::backend b : {preduce::backend::seq, preduce::backend::openmp, preduce::backend::automatic})
            c.push_back({std::string(preduce::name(b)), [=] { sink = preduce::reduce(b, p, n, preduce::sum); }, {}});
        std::vector<std::size_t> order(c.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        for (int r = 0; r < rounds; ++r) {
            std::shuffle(order.begin(), order.end(), g);
            for (const std::size_t i : order) {
                const auto t0 = std::chrono::steady_clock::now();
                for (int k = 0; k < calls; ++k) c[i].call();
                c[i].us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() /
                                  calls);
            }
        }
        std::printf("n = %5zu:", n);
        for (candidate& x : c) std::printf("  %s %.3f us", x.name.c_str(), preduce_timing::median_of(x.us));
        const preduce::backend chosen = preduce::detail::automatic_backend(p, bytes, sums, {}).chosen;
        std::printf("   (auto chose %s)\n", std::string(preduce::name(chosen)).c_str());
    }
}
