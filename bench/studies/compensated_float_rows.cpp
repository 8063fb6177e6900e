// What a compensated float sum's rows cost host cores beside a deterministic sum's, where
// memory, not the adds, should set the pace. One thread, 2^25 floats (128 MiB) taken in turn
// from four buffers, so each form reads from memory; each form timed once a round, rounds
// in turn, median of 15. Every loop walks rows of 32 floats with the library's software
// prefetch (two lines a row, prefetch_bytes ahead) and keeps its lanes in registers:
//   float lanes        x * x added into 32 float lanes (the deterministic sumsq's work)
//   float lanes + 8    the same and x added into 4 more accumulators a vector (8 independent
//                      adds a row more)
//   double lanes       x * x converted to doubles and added into 32 double lanes (the
//                      compensated float sumsq's work: 2 extracts and 4 conversions a row more)
//   double, t1 / t2    double lanes with the prefetches to L2 (prefetcht1) or L3 (prefetcht2)
//   double, no prefetch
//   library            det::host_block_values<compensated> for sumsq_reducer<float>
//                      (the clone this CPU takes), for reference
// If the loads alone set the time, the first three rows take the same time. Sums are printed
// so that no loop is optimised away.
// Build (GCC, x86-64 with AVX-512; from the repository root, after configuring build/):
//   g++ -O3 -DNDEBUG -std=c++20 -fopenmp-simd -Iinclude -Ibuild/include -Ibackends/host_simd/include -Isrc
//       bench/studies/compensated_float_rows.cpp -o compensated_float_rows   (one line)
// What an Intel Xeon VM (family 6, model 207, 2 vCPUs) gave
// (results/cpu-2core-xeon207-compensated-float-rows.txt): float lanes 9.5-9.9 ms, the same
// with eight more adds, double lanes 11.6-11.9 ms, the library 10.9-11.4 ms. The conversions
// cost there; the adds do not.
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "preduce/host_simd/fixed_order_blocks.hpp"
#include "timing/interleaved_samples.hpp"

namespace {

typedef float f16v __attribute__((vector_size(64)));
typedef float f8v __attribute__((vector_size(32)));
typedef double d8v __attribute__((vector_size(64)));

enum class form { float_lanes, float_lanes_more, double_lanes };

// Locality: 3 prefetcht0, 2 prefetcht1, 1 prefetcht2; -1 no prefetch.
template <form F, int Locality>
__attribute__((target("avx512f,avx512vl,avx512dq"), optimize("fp-contract=off"))) double
rows(const float* p, std::size_t n) {
    f16v f[2] = {}, more[8] = {};
    d8v d[4] = {};
    constexpr std::size_t ahead = preduce::detail::prefetch_bytes;
    for (std::size_t i = 0; i < n; i += 32) {
        if constexpr (Locality >= 0) {
            __builtin_prefetch(reinterpret_cast<const char*>(p + i) + ahead, 0, Locality);
            __builtin_prefetch(reinterpret_cast<const char*>(p + i) + ahead + 64, 0, Locality);
        }
        for (int q = 0; q < 2; ++q) {
            f16v x;
            std::memcpy(&x, p + i + 16 * q, sizeof x);
            x = x * x;
            if constexpr (F == form::double_lanes) {
                const f8v lo = __builtin_shufflevector(x, x, 0, 1, 2, 3, 4, 5, 6, 7);
                const f8v hi = __builtin_shufflevector(x, x, 8, 9, 10, 11, 12, 13, 14, 15);
                d[2 * q] += __builtin_convertvector(lo, d8v);
                d[2 * q + 1] += __builtin_convertvector(hi, d8v);
            } else {
                f[q] += x;
                if constexpr (F == form::float_lanes_more)
                    for (int e = 0; e < 4; ++e) more[4 * q + e] += x;  // each its own chain
            }
        }
    }
    double s = 0;
    for (const f16v& v : f)
        for (int j = 0; j < 16; ++j) s += v[j];
    for (const f16v& v : more) s += v[0];
    for (const d8v& v : d)
        for (int j = 0; j < 8; ++j) s += v[j];
    return s;
}

} // namespace

int main() {
    if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512dq")) {
        std::puts("compensated_float_rows: needs AVX-512");
        return 0;
    }
    namespace det = preduce::detail::det;
    const std::size_t n = std::size_t{1} << 25, buffers = 4;
    std::vector<std::vector<float>> x(buffers, std::vector<float>(n));
    std::mt19937_64 g(1);
    std::uniform_real_distribution<float> d(-1, 1);
    for (auto& b : x)
        for (float& e : b) e = d(g);
    std::vector<det::value_t<preduce::precision::compensated, float>> blocks(n / det::block);
    const preduce::sumsq_reducer<float> sumsq;
    const char* names[] = {"float lanes", "float lanes + 8", "double lanes", "double, t1", "double, t2",
                           "double, no prefetch", "library"};
    constexpr int forms = 7;
    std::vector<double> t[forms];
    double sink = 0;
    std::size_t calls = 0;  // seconds_of's call index (not used: the buffer is the round's)
    for (std::size_t round = 0; round < 15; ++round) {
        // Form k reads buffer (round + k) % buffers: a different one from the form before it.
        const auto run = [&](int k, auto&& f) {
            auto call = [&](std::size_t) { sink += f(x[(round + k) % buffers].data()); };
            t[k].push_back(1e3 * preduce_timing::seconds_of(call, calls, 1));
        };
        run(0, [&](const float* p) { return rows<form::float_lanes, 3>(p, n); });
        run(1, [&](const float* p) { return rows<form::float_lanes_more, 3>(p, n); });
        run(2, [&](const float* p) { return rows<form::double_lanes, 3>(p, n); });
        run(3, [&](const float* p) { return rows<form::double_lanes, 2>(p, n); });
        run(4, [&](const float* p) { return rows<form::double_lanes, 1>(p, n); });
        run(5, [&](const float* p) { return rows<form::double_lanes, -1>(p, n); });
        run(6, [&](const float* p) {
            det::host_block_values<preduce::precision::compensated>(sumsq, p, n, 0, blocks.size(), blocks.data(), true);
            return blocks[0].s;
        });
    }
    std::printf("2^25 floats, one thread, rows of 32 with x * x, median of 15 rounds in turn (sums: %g)\n", sink);
    for (int k = 0; k < forms; ++k) std::printf("  %-20s %7.2f ms\n", names[k], preduce_timing::median_of(t[k]));
}
