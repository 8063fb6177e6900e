#pragma once
// The inner loop of the host backends. A plain left fold keeps one dependency chain
// (one add in flight every few cycles); here element i goes to lane i % L, the lanes
// are independent accumulators the compiler maps onto SIMD registers, and they are
// combined at the end in a fixed pairwise pattern. That reorders operands, so reducers
// that are not commutative (is_commutative_v) get a plain left fold instead.
// This file holds that generic fold (lane_fold for any reducer, fold_lanes, finish_lanes) and
// the fused reducers' form of it, with the prefetching and lane counts they share; the
// per-operation folds (fold/*.hpp) and the x86 clones (isa/x86_clones.hpp) build on them.
#include <algorithm>
#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "preduce/host_simd/namespaces.hpp"
#include "preduce/custom.hpp"
#include "preduce/detail/core/numeric.hpp"
#include "preduce/fused.hpp"
#include "preduce/reducers.hpp"
#include "preduce/source.hpp"
#include "preduce/transforms.hpp"

// `omp simd` is what gets GCC to vectorise the lane loops of the order-preserving keys
// (argmin of int32, max of double): without it the Kokkos build would fold those at a
// quarter of the OpenMP build's speed. Builds without OpenMP get it from -fopenmp-simd, which
// enables the simd pragma alone (no runtime), and PREDUCE_OPENMP_SIMD.
#if defined(_OPENMP) || defined(PREDUCE_OPENMP_SIMD)
#define PREDUCE_PRAGMA_OMP_SIMD _Pragma("omp simd")
#else
#define PREDUCE_PRAGMA_OMP_SIMD
#endif

namespace preduce::host_simd {

// Software prefetch 8 KiB ahead of the loads. Folds that spend a few instructions per
// element (float min/max keys, minmax, argmin) otherwise leave the hardware prefetcher
// behind and read well below the sum's speed; with it they come close to it
// (docs/host-folds.md). The sum, which keeps up without it, is left alone.
// A prefetch never faults, so running past the end of the input is harmless.
inline constexpr std::size_t prefetch_bytes = 8192;

template <class S>
inline void prefetch_ahead(const S& src, std::size_t i, std::size_t bytes) noexcept {
    if constexpr (std::is_pointer_v<S>) {
        const char* p = reinterpret_cast<const char*>(src + i) + prefetch_bytes;
        for (std::size_t b = 0; b < bytes; b += 64) __builtin_prefetch(p + b);
    } else {
        // Two inputs side by side (zip_source): one prefetch per array.
        prefetch_ahead(src.first, i, bytes / 2);
        prefetch_ahead(src.second, i, bytes / 2);
    }
}

// Plain sums and products are a vector instruction or two per element (the 8- and 16-bit
// ones included): the hardware prefetcher keeps up, and the extra prefetches cost them a
// few percent (2 threads, 2^27 narrow elements, interleaved with the read probe: 0.80-0.91
// of its speed with them, 0.85-0.93 without).
template <class R>
inline constexpr bool prefetch_helps_v = true;
template <class T>
inline constexpr bool prefetch_helps_v<sum_reducer<T>> = false;
template <class T>
inline constexpr bool prefetch_helps_v<wide_sum_reducer<T>> = false;
template <class T>
inline constexpr bool prefetch_helps_v<prod_reducer<T>> = false;

// 128 bytes of accumulators: 32 floats / 16 doubles keep 4-8 vector registers busy,
// enough to hide add latency on AVX2 and SSE2 alike without spilling.
template <class A>
inline constexpr std::size_t lane_count = sizeof(A) >= 16 ? 8 : 128 / sizeof(A);

// One round of the lanes: element i + j into lane j, for j < L.
struct lift_round {
    template <std::size_t L, class R>
    void operator()(const R& r, source_t<R> data, std::size_t i, typename R::accumulator_type* lane) const {
        PREDUCE_PRAGMA_OMP_SIMD
        for (std::size_t j = 0; j < L; ++j) lane[j] = R::combine(lane[j], r.lift(data[i + j], i + j));
    }
};

// The end of a fold of L lanes: the last partial round data[i, end) (fewer than L elements)
// into lanes 0, 1, ..., then the lanes' pairwise tree. Every form of the lanes ends here.
template <std::size_t L, class R>
typename R::accumulator_type finish_lanes(const R& r, source_t<R> data, std::size_t i, std::size_t end,
                                          typename R::accumulator_type (&lane)[L]) {
    for (std::size_t j = 0; j < L && i + j < end; ++j) lane[j] = R::combine(lane[j], r.lift(data[i + j], i + j));
    for (std::size_t w = L / 2; w > 0; w /= 2)
        for (std::size_t j = 0; j < w; ++j) lane[j] = R::combine(lane[j], lane[j + w]);
    return lane[0];
}

// L lanes of a commutative reducer over [begin, end), then their pairwise tree. Round
// folds each whole round of L elements (lift_round, or one that widens 16-bit floats with
// F16C, in isa/x86_clones.hpp); the last partial round and the tree are the same for
// every Round.
template <std::size_t L, bool Prefetch, class R, class Round = lift_round>
typename R::accumulator_type fold_lanes(const R& r, source_t<R> data, std::size_t begin, std::size_t end,
                                        Round round = {}) {
    static_assert(is_commutative_v<R>, "lanes reorder operands");
    using A = typename R::accumulator_type;
    A lane[L];
    for (std::size_t j = 0; j < L; ++j) lane[j] = R::identity();
    std::size_t i = begin;
    for (; i + L <= end; i += L) {
        if constexpr (Prefetch) prefetch_ahead(data, i, L * sizeof(typename R::value_type));
        round.template operator()<L>(r, data, i, lane);
    }
    return finish_lanes<L>(r, data, i, end, lane);
}

template <class R>
typename R::accumulator_type lane_fold(const R& r, source_t<R> data, std::size_t begin, std::size_t end) {
    using A = typename R::accumulator_type;
    if constexpr (!is_commutative_v<R>) {
        // Operand order matters: one left fold, no lanes.
        A acc = R::identity();
        for (std::size_t i = begin; i < end; ++i) acc = R::combine(acc, r.lift(data[i], i));
        return acc;
    } else {
        return fold_lanes<lane_count<A>, prefetch_helps_v<R>>(r, data, begin, end);
    }
}

// Fused reductions: one lane array per part (structure of arrays), all updated in the
// same loop, so minmax vectorises like min and max alone (an array of {min, max} pairs
// would interleave them in every register).
template <class F, std::size_t... I>
typename F::accumulator_type fused_lanes(const F& r, const typename F::value_type* data, std::size_t begin,
                                         std::size_t end, std::index_sequence<I...>) {
    constexpr std::size_t L = std::min({lane_count<typename F::template part_t<I>::accumulator_type>...});
    std::tuple<std::array<typename F::template part_t<I>::accumulator_type, L>...> lanes;
    ((std::get<I>(lanes).fill(F::template part_t<I>::identity())), ...);
    std::size_t i = begin;
    for (; i + L <= end; i += L) {
        prefetch_ahead(data, i, L * sizeof(typename F::value_type));
        PREDUCE_PRAGMA_OMP_SIMD
        for (std::size_t j = 0; j < L; ++j)
            ((std::get<I>(lanes)[j] =
                  F::template part_t<I>::combine(std::get<I>(lanes)[j], get<I>(r.parts).lift(data[i + j], i + j))),
             ...);
    }
    for (std::size_t j = 0; i + j < end; ++j)
        ((std::get<I>(lanes)[j] =
              F::template part_t<I>::combine(std::get<I>(lanes)[j], get<I>(r.parts).lift(data[i + j], i + j))),
         ...);
    for (std::size_t w = L / 2; w > 0; w /= 2)
        for (std::size_t j = 0; j < w; ++j)
            ((std::get<I>(lanes)[j] = F::template part_t<I>::combine(std::get<I>(lanes)[j], std::get<I>(lanes)[j + w])),
             ...);
    return make_pack(std::get<I>(lanes)[0]...);
}

template <class... R>
    requires(is_commutative_v<fused_reducer<R...>>)
typename fused_reducer<R...>::accumulator_type lane_fold(const fused_reducer<R...>& r,
                                                         const typename fused_reducer<R...>::value_type* data,
                                                         std::size_t begin, std::size_t end) {
    return fused_lanes(r, data, begin, end, std::index_sequence_for<R...>{});
}

} // namespace preduce::host_simd
