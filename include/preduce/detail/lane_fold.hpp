#pragma once
// The inner loop of the host backends. A plain left fold keeps one dependency chain
// (one add in flight every few cycles); here element i goes to lane i % L, the lanes
// are independent accumulators the compiler maps onto SIMD registers, and they are
// combined at the end in a fixed pairwise pattern. Needs a commutative combine.
#include <cstddef>

#if defined(_OPENMP)
#define PREDUCE_PRAGMA_OMP_SIMD _Pragma("omp simd")
#else
#define PREDUCE_PRAGMA_OMP_SIMD
#endif

namespace preduce::detail {

// 128 bytes of accumulators: 32 floats / 16 doubles keep 4-8 vector registers busy,
// enough to hide add latency on AVX2 and SSE2 alike without spilling.
template <class A>
inline constexpr std::size_t lane_count = sizeof(A) >= 16 ? 8 : 128 / sizeof(A);

template <class R>
typename R::accumulator_type lane_fold(const R& r, const typename R::value_type* data, std::size_t begin,
                                       std::size_t end) {
    using A = typename R::accumulator_type;
    constexpr std::size_t L = lane_count<A>;
    A lane[L];
    for (std::size_t j = 0; j < L; ++j) lane[j] = R::identity();
    std::size_t i = begin;
    for (; i + L <= end; i += L) {
        PREDUCE_PRAGMA_OMP_SIMD
        for (std::size_t j = 0; j < L; ++j) lane[j] = R::combine(lane[j], r.lift(data[i + j], i + j));
    }
    for (std::size_t j = 0; i + j < end; ++j) lane[j] = R::combine(lane[j], r.lift(data[i + j], i + j));
    for (std::size_t w = L / 2; w > 0; w /= 2)
        for (std::size_t j = 0; j < w; ++j) lane[j] = R::combine(lane[j], lane[j + w]);
    return lane[0];
}

} // namespace preduce::detail
