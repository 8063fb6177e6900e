// How fast can a bare AVX2 (and, where the CPU has it, AVX-512) loop sum 16-bit floats on this
// CPU, against the read probe
// (read_probe.hpp)? A standalone study beside the benchmark: 2 threads, 2^27 elements, each
// loop timed 25 times interleaved with the probe, median, ratio to the probe's median. It
// bounds what openmp's float16/bfloat16 sums (lane_fold.hpp) can reach here; the int8 row is
// the library's own fold (narrow_int_sum_avx2), for comparison.
// From the repository root:
//   g++ -O2 -fopenmp -std=c++20 -Ibench -Iinclude -Ibackends/host_simd/include bench/studies/narrow_sum_loops.cpp bench/read_probe.cpp -o narrow_sum_loops && ./narrow_sum_loops
#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "preduce/host_simd/lane_fold.hpp"
#include "read_probe.hpp"

namespace {
using u16 = std::uint16_t;

__attribute__((target("avx2"))) double lanes(__m256 v) {
    alignas(32) float f[8];
    _mm256_store_ps(f, v);
    double s = 0;
    for (float x : f) s += x;
    return s;
}

// float16: vcvtph2ps from memory and an add, four accumulators: the fewest instructions.
__attribute__((target("avx2,f16c"))) double f16_sum(const unsigned char* b, std::size_t bytes) {
    const auto* p = reinterpret_cast<const u16*>(b);
    const std::size_t n = bytes / 2;
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (std::size_t i = 0; i + 32 <= n; i += 32) {
        a0 = _mm256_add_ps(a0, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i))));
        a1 = _mm256_add_ps(a1, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 8))));
        a2 = _mm256_add_ps(a2, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 16))));
        a3 = _mm256_add_ps(a3, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 24))));
    }
    return lanes(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));
}

// bfloat16: a 32-byte load, the even elements shifted up, the odd ones masked, two adds.
__attribute__((target("avx2"))) double bf16_sum(const unsigned char* b, std::size_t bytes) {
    const __m256i upper = _mm256_set1_epi32(static_cast<int>(0xffff0000u));
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (std::size_t i = 0; i + 64 <= bytes; i += 64) {
        const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + i));
        const __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + i + 32));
        a0 = _mm256_add_ps(a0, _mm256_castsi256_ps(_mm256_slli_epi32(v, 16)));
        a1 = _mm256_add_ps(a1, _mm256_castsi256_ps(_mm256_and_si256(v, upper)));
        a2 = _mm256_add_ps(a2, _mm256_castsi256_ps(_mm256_slli_epi32(w, 16)));
        a3 = _mm256_add_ps(a3, _mm256_castsi256_ps(_mm256_and_si256(w, upper)));
    }
    return lanes(_mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)));
}

// The same two loops with 512-bit vectors (AVX-512F: vcvtph2ps of 16 elements a load), where
// the CPU has them.
__attribute__((target("avx512f"))) double lanes512(__m512 v) {
    alignas(64) float f[16];
    _mm512_store_ps(f, v);
    double s = 0;
    for (float x : f) s += x;
    return s;
}

__attribute__((target("avx512f"))) double f16_sum512(const unsigned char* b, std::size_t bytes) {
    const auto* p = reinterpret_cast<const u16*>(b);
    const std::size_t n = bytes / 2;
    __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (std::size_t i = 0; i + 64 <= n; i += 64) {
        a0 = _mm512_add_ps(a0, _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i))));
        a1 = _mm512_add_ps(a1, _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 16))));
        a2 = _mm512_add_ps(a2, _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 32))));
        a3 = _mm512_add_ps(a3, _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 48))));
    }
    return lanes512(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
}

__attribute__((target("avx512f"))) double bf16_sum512(const unsigned char* b, std::size_t bytes) {
    const __m512i upper = _mm512_set1_epi32(static_cast<int>(0xffff0000u));
    __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (std::size_t i = 0; i + 128 <= bytes; i += 128) {
        const __m512i v = _mm512_loadu_si512(b + i);
        const __m512i w = _mm512_loadu_si512(b + i + 64);
        a0 = _mm512_add_ps(a0, _mm512_castsi512_ps(_mm512_slli_epi32(v, 16)));
        a1 = _mm512_add_ps(a1, _mm512_castsi512_ps(_mm512_and_si512(v, upper)));
        a2 = _mm512_add_ps(a2, _mm512_castsi512_ps(_mm512_slli_epi32(w, 16)));
        a3 = _mm512_add_ps(a3, _mm512_castsi512_ps(_mm512_and_si512(w, upper)));
    }
    return lanes512(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
}

// int8: the library's fold.
double i8_sum(const unsigned char* p, std::size_t bytes) {
    return static_cast<double>(static_cast<std::int64_t>(
        preduce::detail::narrow_int_sum_avx2(reinterpret_cast<const std::int8_t*>(p), 0, bytes)));
}

using loop = double (*)(const unsigned char*, std::size_t);

// Each thread folds its half; the probe splits the bytes the same way.
double two_threads(loop f, const unsigned char* p, std::size_t bytes) {
    double acc = 0;
#pragma omp parallel num_threads(2) reduction(+ : acc)
    {
        const std::size_t half = bytes / 2, t = static_cast<std::size_t>(omp_get_thread_num());
        acc += f(p + t * half, half);
    }
    return acc;
}

double timed(loop f, const unsigned char* p, std::size_t bytes, double* result) {
    const auto t0 = std::chrono::steady_clock::now();
    *result = f == nullptr ? static_cast<double>(preduce_bench::read_probe(p, bytes, 2)) : two_threads(f, p, bytes);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
} // namespace

int main() {
    const std::size_t bytes = std::size_t{1} << 28;  // 2^27 16-bit elements, 2^28 int8
    auto* p = static_cast<unsigned char*>(std::aligned_alloc(64, bytes));
    for (std::size_t i = 0; i < bytes / 2; ++i) {  // finite float16 and bfloat16 values, any int8
        const u16 v = static_cast<u16>(0x3c00 + ((i * 2654435761u >> 13) & 0x3ff));
        p[2 * i] = static_cast<unsigned char>(v);
        p[2 * i + 1] = static_cast<unsigned char>(v >> 8);
    }
    // A row runs where the CPU has what its loop needs (the 512-bit loops: AVX-512F).
    const bool avx512 = __builtin_cpu_supports("avx512f");
    struct row { const char* name; loop f; bool runs; std::vector<double> t; double result; } rows[] = {
        {"probe", nullptr, true, {}, 0}, {"float16 sum", f16_sum, true, {}, 0}, {"bfloat16 sum", bf16_sum, true, {}, 0},
        {"int8 sum (library)", i8_sum, true, {}, 0}, {"float16 sum avx512", f16_sum512, avx512, {}, 0},
        {"bfloat16 sum avx512", bf16_sum512, avx512, {}, 0}};
    for (int rep = 0; rep < 25; ++rep)
        for (auto& r : rows)
            if (r.runs) r.t.push_back(timed(r.f, p, bytes, &r.result));
    for (auto& r : rows) std::sort(r.t.begin(), r.t.end());
    const double probe_median = rows[0].t[12];
    for (const auto& r : rows)
        if (!r.t.empty())
            std::printf("%-20s %7.3f ms  %5.1f GB/s  probe/this %.3f\n", r.name, r.t[12] * 1e3, bytes / r.t[12] / 1e9,
                    probe_median / r.t[12]);
    std::free(p);
}
