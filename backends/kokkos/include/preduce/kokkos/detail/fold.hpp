#pragma once
// What one parallel_reduce iteration folds. A one-element-per-index functor spends its
// time in Kokkos' loop and one serial dependency chain (float sum of 2^26 on Serial:
// ~8 GB/s against a 40 GB/s AVX2 read probe), so each index gets real work, shaped for
// where it runs:
//
//  - host execution spaces: index c owns a contiguous chunk, folded by
//    preduce::detail::lane_fold (preduce/detail/lane_fold.hpp), the same SIMD-lane fold
//    the OpenMP backend runs, with its vectorised count_if and 4-byte argmin/argmax.
//  - strided_fold: device execution spaces. Index t reads t, t + S, t + 2S, ... so that
//    neighbouring GPU threads read neighbouring addresses (coalesced), with a few
//    independent accumulators per thread for memory-level parallelism.
//
// Both combine the partial results in a fixed pattern and need a commutative combine
// (every built-in reducer has one).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>


namespace preduce::kokkos::detail {

// Independent accumulators per device thread: 4 loads in flight per thread.
inline constexpr std::size_t strided_ilp = 4;

template <class R>
KOKKOS_INLINE_FUNCTION typename R::accumulator_type strided_fold(const R& r, const typename R::value_type* data,
                                                                  std::size_t first, std::size_t stride,
                                                                  std::size_t n) {
    using A = typename R::accumulator_type;
    constexpr std::size_t K = strided_ilp;
    A acc[K];
    for (std::size_t k = 0; k < K; ++k) acc[k] = R::identity();
    std::size_t i = first;
    // i + (K-1)*stride < n, written so that it cannot overflow.
    for (; i < n && n - i > (K - 1) * stride; i += K * stride)
        for (std::size_t k = 0; k < K; ++k) acc[k] = R::combine(acc[k], r.lift(data[i + k * stride], i + k * stride));
    for (; i < n; i += stride) acc[0] = R::combine(acc[0], r.lift(data[i], i));
    for (std::size_t w = K / 2; w > 0; w /= 2)
        for (std::size_t k = 0; k < w; ++k) acc[k] = R::combine(acc[k], acc[k + w]);
    return acc[0];
}

} // namespace preduce::kokkos::detail
