#pragma once
// What one Kokkos iteration folds. A one-element-per-index functor spends its time in
// Kokkos' loop and one serial dependency chain (float sum of 2^26 on Serial: ~8 GB/s
// against a 40 GB/s AVX2 read probe), so each index gets real work, shaped for where it
// runs and for whether the reducer may reorder operands:
//
//  - host execution spaces: index c owns a contiguous chunk, folded by
//    preduce::detail::host_fold (preduce/host_simd/lane_fold.hpp), the same SIMD-lane fold
//    the OpenMP backend runs, with its vectorised count_if, minmax, moments and 4-byte
//    argmin/argmax; for a non-commutative reducer it is a plain left fold.
//  - strided_fold: device execution spaces, commutative reducers. Index t reads t, t + S,
//    t + 2S, ... so that neighbouring GPU threads read neighbouring addresses (coalesced),
//    with a few independent accumulators per thread for memory-level parallelism.
//  - in_order_fold: device execution spaces, non-commutative reducers (ordered.hpp).
//
// Sources are read only through src[i]: a plain pointer or a zip_source (two arrays).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>

#include "preduce/source.hpp"

namespace preduce::kokkos::detail {

// Independent accumulators per device thread: 4 loads in flight per thread.
inline constexpr std::size_t strided_ilp = 4;

// Combines its accumulators in a fixed pattern that interleaves operands: commutative
// reducers only.
template <class R>
KOKKOS_INLINE_FUNCTION typename R::accumulator_type strided_fold(const R& r, source_t<R> src, std::size_t first,
                                                                  std::size_t stride, std::size_t n) {
    using A = typename R::accumulator_type;
    constexpr std::size_t K = strided_ilp;
    A acc[K];
    for (std::size_t k = 0; k < K; ++k) acc[k] = R::identity();
    std::size_t i = first;
    // i + (K-1)*stride < n, written so that it cannot overflow.
    for (; i < n && n - i > (K - 1) * stride; i += K * stride)
        for (std::size_t k = 0; k < K; ++k) acc[k] = R::combine(acc[k], r.lift(src[i + k * stride], i + k * stride));
    for (; i < n; i += stride) acc[0] = R::combine(acc[0], r.lift(src[i], i));
    for (std::size_t w = K / 2; w > 0; w /= 2)
        for (std::size_t k = 0; k < w; ++k) acc[k] = R::combine(acc[k], acc[k + w]);
    return acc[0];
}

// The left fold of [begin, end), operand order kept.
template <class R>
KOKKOS_INLINE_FUNCTION typename R::accumulator_type in_order_fold(const R& r, source_t<R> src, std::size_t begin,
                                                                   std::size_t end) {
    typename R::accumulator_type acc = R::identity();
    for (std::size_t i = begin; i < end; ++i) acc = R::combine(acc, r.lift(src[i], i));
    return acc;
}

// First index of block b when [0, n) is cut into `blocks` contiguous blocks whose sizes
// differ by at most one. q * b + min(b, rem) rather than n * b / blocks, which overflows
// for large n.
KOKKOS_INLINE_FUNCTION std::size_t block_begin(std::size_t b, std::size_t blocks, std::size_t n) {
    const std::size_t q = n / blocks, rem = n % blocks;
    return q * b + (b < rem ? b : rem);
}

} // namespace preduce::kokkos::detail
