// How fast can a bare AVX2 loop sum 16-bit floats and int8 on this CPU, against the read
// probe? A standalone study, outside the library and the benchmark: 2 threads, 2^27
// elements, each loop timed 25 times interleaved with the probe, median, ratio to the
// probe's median. It bounds what openmp's narrow sums (lane_fold.hpp) can reach here.
//   g++ -O2 -fopenmp -std=c++20 bench/studies/narrow_sum_loops.cpp -o narrow_sum_loops && ./narrow_sum_loops
#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {
using u16 = std::uint16_t;

// The probe: one xor a 32-byte load, four independent chains.
__attribute__((target("avx2"))) double probe(const unsigned char* p, std::size_t bytes) {
    __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
    for (std::size_t i = 0; i + 128 <= bytes; i += 128) {
        a0 = _mm256_xor_si256(a0, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i)));
        a1 = _mm256_xor_si256(a1, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 32)));
        a2 = _mm256_xor_si256(a2, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 64)));
        a3 = _mm256_xor_si256(a3, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 96)));
    }
    alignas(32) std::uint64_t l[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(l), _mm256_xor_si256(_mm256_xor_si256(a0, a1), _mm256_xor_si256(a2, a3)));
    return static_cast<double>(l[0] ^ l[1] ^ l[2] ^ l[3]);
}

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

// int8, the library's form: vpmaddubsw(1, x) into 16-bit lanes, widened every 64 rounds.
__attribute__((target("avx2"))) double i8_maddubs(const unsigned char* p, std::size_t bytes) {
    const __m256i ones8 = _mm256_set1_epi8(1), ones16 = _mm256_set1_epi16(1), z = _mm256_setzero_si256();
    __m256i t = z;
    std::size_t i = 0;
    while (i + 128 <= bytes) {
        const std::size_t rounds = std::min<std::size_t>((bytes - i) / 128, 64);
        __m256i s0 = z, s1 = z, s2 = z, s3 = z;
        for (std::size_t r = 0; r < rounds; ++r, i += 128) {
            s0 = _mm256_add_epi16(s0, _mm256_maddubs_epi16(ones8, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i))));
            s1 = _mm256_add_epi16(s1, _mm256_maddubs_epi16(ones8, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 32))));
            s2 = _mm256_add_epi16(s2, _mm256_maddubs_epi16(ones8, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 64))));
            s3 = _mm256_add_epi16(s3, _mm256_maddubs_epi16(ones8, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 96))));
        }
        const __m256i s = _mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(s0, ones16), _mm256_madd_epi16(s1, ones16)),
                                           _mm256_add_epi32(_mm256_madd_epi16(s2, ones16), _mm256_madd_epi16(s3, ones16)));
        t = _mm256_add_epi64(t, _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(s)),
                                                 _mm256_cvtepi32_epi64(_mm256_extracti128_si256(s, 1))));
    }
    alignas(32) std::int64_t l[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(l), t);
    return static_cast<double>(l[0] + l[1] + l[2] + l[3]);
}

// int8, the form it replaced: offset to unsigned, vpsadbw, a 64-bit add.
__attribute__((target("avx2"))) double i8_sad(const unsigned char* p, std::size_t bytes) {
    const __m256i z = _mm256_setzero_si256(), o = _mm256_set1_epi8(static_cast<char>(0x80));
    __m256i t0 = z, t1 = z;
    for (std::size_t i = 0; i + 64 <= bytes; i += 64) {
        t0 = _mm256_add_epi64(t0, _mm256_sad_epu8(_mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i)), o), z));
        t1 = _mm256_add_epi64(t1, _mm256_sad_epu8(_mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 32)), o), z));
    }
    alignas(32) std::uint64_t l[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(l), _mm256_add_epi64(t0, t1));
    return static_cast<double>(l[0] + l[1] + l[2] + l[3]) - 128.0 * static_cast<double>(bytes);
}

using loop = double (*)(const unsigned char*, std::size_t);

double timed(loop f, const unsigned char* p, std::size_t bytes, double* result) {
    const auto t0 = std::chrono::steady_clock::now();
    double acc = 0;
#pragma omp parallel num_threads(2) reduction(+ : acc)
    {
        const std::size_t half = bytes / 2, t = static_cast<std::size_t>(omp_get_thread_num());
        acc += f(p + t * half, half);
    }
    *result = acc;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
} // namespace

int main() {
    const std::size_t bytes = std::size_t{1} << 28;  // 2^27 16-bit elements; the int8 loops read 2^28 bytes
    auto* p = static_cast<unsigned char*>(std::aligned_alloc(64, bytes));
    for (std::size_t i = 0; i < bytes / 2; ++i) {  // finite float16 and bfloat16 values, any int8
        const u16 v = static_cast<u16>(0x3c00 + ((i * 2654435761u >> 13) & 0x3ff));
        p[2 * i] = static_cast<unsigned char>(v);
        p[2 * i + 1] = static_cast<unsigned char>(v >> 8);
    }
    struct row { const char* name; loop f; std::vector<double> t; double result; } rows[] = {
        {"probe", probe, {}, 0}, {"float16 sum", f16_sum, {}, 0}, {"bfloat16 sum", bf16_sum, {}, 0},
        {"int8 sum (maddubs)", i8_maddubs, {}, 0}, {"int8 sum (xor+sad)", i8_sad, {}, 0}};
    for (int rep = 0; rep < 25; ++rep)
        for (auto& r : rows) r.t.push_back(timed(r.f, p, bytes, &r.result));
    std::printf("int8 sums agree: %s\n", rows[3].result == rows[4].result ? "yes" : "NO");
    for (auto& r : rows) std::sort(r.t.begin(), r.t.end());
    const double probe_median = rows[0].t[12];
    for (const auto& r : rows)
        std::printf("%-20s %7.3f ms  %5.1f GB/s  probe/this %.3f\n", r.name, r.t[12] * 1e3, bytes / r.t[12] / 1e9,
                    probe_median / r.t[12]);
    std::free(p);
}
