#pragma once
// Sums of short segments of equal length, several segments at once across the SIMD lanes:
// eight float segments (four double ones) are each folded into one AVX register, and the
// eight registers are then summed across their lanes together, by a transposing tree of
// horizontal adds, into one register of eight results. Folding each segment alone ends
// every 16-element segment in a horizontal sum of its own, which costs more than the loads
// (docs/host-folds.md). Segment lengths: 1, 2, 4 or 8 registers (short_segments_fit); the
// caller folds the rest. The order is the fast order's:
// a segment's elements in lane order, then the tree.
#include <cstddef>
#include <cstdint>

#include "preduce/host_simd/isa/x86_clones.hpp"

// Compiled for AVX2 beside the baseline (used from fold_segments_avx2 only, when the CPU has
// AVX2: short_sums_dispatched), or with the baseline when that is AVX2 already.
#if defined(PREDUCE_HOST_AVX2_DISPATCH)
#define PREDUCE_SHORT_SUMS 1
#define PREDUCE_SHORT_SUMS_TARGET __attribute__((target("avx2")))
#elif defined(__AVX2__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define PREDUCE_SHORT_SUMS 1
#define PREDUCE_SHORT_SUMS_TARGET
#endif

namespace preduce::host_simd {

#if defined(PREDUCE_HOST_AVX2_DISPATCH)
inline constexpr bool short_sums_dispatched = true;
#else
inline constexpr bool short_sums_dispatched = false;
#endif

// Lengths served: 1, 2, 4 and 8 registers (8 .. 64 floats, 4 .. 32 doubles).
template <class T>
constexpr bool short_segments_fit(std::uint64_t length) {
    constexpr std::uint64_t lanes = 32 / sizeof(T);
    return length == lanes || length == 2 * lanes || length == 4 * lanes || length == 8 * lanes;
}

#if defined(PREDUCE_SHORT_SUMS)
namespace short_sums {
PREDUCE_SHORT_SUMS_TARGET inline __m256 load(const float* p) { return _mm256_loadu_ps(p); }
PREDUCE_SHORT_SUMS_TARGET inline __m256d load(const double* p) { return _mm256_loadu_pd(p); }
PREDUCE_SHORT_SUMS_TARGET inline __m256 add(__m256 a, __m256 b) { return _mm256_add_ps(a, b); }
PREDUCE_SHORT_SUMS_TARGET inline __m256d add(__m256d a, __m256d b) { return _mm256_add_pd(a, b); }
PREDUCE_SHORT_SUMS_TARGET inline void store(float* p, __m256 v) { _mm256_storeu_ps(p, v); }
PREDUCE_SHORT_SUMS_TARGET inline void store(double* p, __m256d v) { _mm256_storeu_pd(p, v); }

// Eight float registers summed across their lanes: one register of the eight sums.
PREDUCE_SHORT_SUMS_TARGET inline __m256 across(const __m256 (&a)[8]) {
    // [a0 01, a0 23, a1 01, a1 23 | a0 45, a0 67, a1 45, a1 67], then the four-lane sums.
    const __m256 h01 = _mm256_hadd_ps(a[0], a[1]), h23 = _mm256_hadd_ps(a[2], a[3]);
    const __m256 h45 = _mm256_hadd_ps(a[4], a[5]), h67 = _mm256_hadd_ps(a[6], a[7]);
    const __m256 q0 = _mm256_hadd_ps(h01, h23), q1 = _mm256_hadd_ps(h45, h67);  // [s0..s3 low | s0..s3 high]
    return _mm256_add_ps(_mm256_permute2f128_ps(q0, q1, 0x20), _mm256_permute2f128_ps(q0, q1, 0x31));
}
// Four double registers summed across their lanes.
PREDUCE_SHORT_SUMS_TARGET inline __m256d across(const __m256d (&a)[4]) {
    const __m256d h01 = _mm256_hadd_pd(a[0], a[1]), h23 = _mm256_hadd_pd(a[2], a[3]);  // [a0 01, a1 01 | a0 23, a1 23]
    return _mm256_add_pd(_mm256_permute2f128_pd(h01, h23, 0x20), _mm256_permute2f128_pd(h01, h23, 0x31));
}
} // namespace short_sums

// Segments [first, last) of Regs registers each: their sums into out[first, ...), a group of
// as many segments as a register has lanes at a time. Returns the first segment it left
// (fewer than a group remain from there). Regs is a template argument so that a group's
// loads are all issued before its adds, from registers.
template <int Regs, class T>
PREDUCE_SHORT_SUMS_TARGET inline std::uint64_t sum_short_segments(const T* src, std::uint64_t first,
                                                                  std::uint64_t last, T* out) {
    constexpr int lanes = 32 / sizeof(T);
    constexpr std::uint64_t k = lanes * Regs;
    using V = decltype(short_sums::load(src));
    std::uint64_t s = first;
    for (; s + lanes <= last; s += lanes) {
        const T* p = src + s * k;
        V a[lanes];
        for (int j = 0; j < lanes; ++j) {
            a[j] = short_sums::load(p + j * k);
            for (int v = 1; v < Regs; ++v) a[j] = short_sums::add(a[j], short_sums::load(p + j * k + lanes * v));
        }
        short_sums::store(out + s, short_sums::across(a));
    }
    return s;
}

// Segments of `length` elements (short_segments_fit).
template <class T>
PREDUCE_SHORT_SUMS_TARGET inline std::uint64_t sum_short_segments(const T* src, std::uint64_t length, std::uint64_t first,
                                                                  std::uint64_t last, T* out) {
    switch (length / (32 / sizeof(T))) {
    case 1: return sum_short_segments<1, T>(src, first, last, out);
    case 2: return sum_short_segments<2, T>(src, first, last, out);
    case 4: return sum_short_segments<4, T>(src, first, last, out);
    default: return sum_short_segments<8, T>(src, first, last, out);
    }
}
#endif

} // namespace preduce::host_simd
