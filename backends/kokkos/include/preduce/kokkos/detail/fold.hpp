#pragma once
// What one Kokkos iteration folds, by where it runs and whether the reducer may reorder
// operands. On a host space a one-element-per-index functor spends its time in Kokkos' loop
// and one serial dependency chain, at a fraction of the memory's speed (docs/host-folds.md),
// so each index gets real work there:
//
//  - host execution spaces: index c owns a contiguous chunk, folded by
//    preduce::host_simd::host_fold (preduce/host_simd/lane_fold.hpp), the same SIMD-lane fold
//    the OpenMP backend runs, with its vectorised count_if, minmax, moments and 4-byte
//    argmin/argmax; for a non-commutative reducer it is a plain left fold.
//  - device execution spaces, commutative reducers: one element per index (reduce.hpp's
//    element_functor), as a plain Kokkos parallel_reduce is written.
//  - in_order_fold: device execution spaces, non-commutative reducers (ordered.hpp).
//
// Sources are read only through src[i]: a plain pointer or a zip_source (two arrays).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>

#include "preduce/source.hpp"

namespace preduce::kokkos::detail {

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
