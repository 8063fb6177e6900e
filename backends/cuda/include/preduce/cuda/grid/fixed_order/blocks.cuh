#pragma once
// fixed_blocks: the block values of the fixed order (steps 1-3 of
// preduce/detail/algorithm/fixed_order/order.hpp), a warp a block at a time, in the one-lane or the
// C-lane vector form (see fixed_order.cuh), then the in-launch tree.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "preduce/cuda/grid/fixed_order/tree.cuh"
#include "preduce/cuda/tuning.hpp"
#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/precision.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda::detail::fixed {

// Elements of src[i, i + C) as one aligned load per array: the C-lane form's vector.
template <int C, class T>
struct alignas(C * sizeof(T)) vector_run {
    T e[C];
};

template <int C, class S, class T>
__device__ __forceinline__ void load_run(S src, std::size_t i, T (&x)[C]) {
    if constexpr (std::is_pointer_v<S>) {
        const vector_run<C, T> v = *reinterpret_cast<const vector_run<C, T>*>(src + i);
#pragma unroll
        for (int q = 0; q < C; ++q) x[q] = v.e[q];
    } else {  // a zip_source: a vector of each array
        using F = std::remove_cv_t<std::remove_pointer_t<decltype(src.first)>>;
        using G = std::remove_cv_t<std::remove_pointer_t<decltype(src.second)>>;
        const vector_run<C, F> a = *reinterpret_cast<const vector_run<C, F>*>(src.first + i);
        const vector_run<C, G> b = *reinterpret_cast<const vector_run<C, G>*>(src.second + i);
#pragma unroll
        for (int q = 0; q < C; ++q) x[q] = {a.e[q], b.e[q]};
    }
}

// Lanes per thread of the vector form for R's source: C elements of at most 16 bytes in all,
// one aligned load per array; 1 where the elements do not pack into such vectors.
template <class T>
constexpr int lanes_of_type() {
    if constexpr (sizeof(T) != alignof(T) || (sizeof(T) & (sizeof(T) - 1)) != 0 || sizeof(T) > 8) return 1;
    else return sizeof(T) <= 4 ? 4 : 2;
}
template <class R>
constexpr int vector_lanes() {
    using S = source_t<R>;
    if constexpr (std::is_pointer_v<S>) {
        return lanes_of_type<std::remove_cv_t<std::remove_pointer_t<S>>>();
    } else {
        using F = std::remove_cv_t<std::remove_pointer_t<decltype(S{}.first)>>;
        using G = std::remove_cv_t<std::remove_pointer_t<decltype(S{}.second)>>;
        return sizeof(F) == sizeof(G) ? lanes_of_type<F>() : 1;
    }
}

template <int C, class T>
bool run_aligned(const T* p) {
    return reinterpret_cast<std::uintptr_t>(p) % (C * sizeof(T)) == 0;
}
template <int C, class S>
bool runs_aligned(S src) {
    if constexpr (std::is_pointer_v<S>) return run_aligned<C>(src);
    else return run_aligned<C>(src.first) && run_aligned<C>(src.second);
}

// Loads a thread issues before it adds (tuning.hpp): the one-lane form's scalar loads, or the
// C-lane form's vectors, half as many for two arrays or double lanes of float data, which
// need twice the registers.
template <precision P, class R, int C>
constexpr int runs_in_flight() {
    using A = typename R::accumulator_type;
    if constexpr (C == 1) return loads_in_flight;
    else if constexpr (is_zip_source_v<source_t<R>> || !std::is_same_v<fixed_order::wide_t<P, A>, A>)
        return tuning::fixed_vector_loads_wide;
    else return tuning::fixed_vector_loads;
}

// The value of full block b by the 32 / C threads that share it: thread c adds lanes
// c*C .. c*C + C - 1 (nothing when !live; it still takes part in the shuffles), then the
// lane tree; thread c == 0 returns the block value.
template <precision P, class R, int C>
__device__ __forceinline__ fixed_order::value_t<P, typename R::accumulator_type> full_block(const R& r, source_t<R> src,
                                                                                    std::size_t base, std::size_t b,
                                                                                    unsigned c, bool live) {
    using A = typename R::accumulator_type;
    using V = fixed_order::value_t<P, A>;
    constexpr int U = runs_in_flight<P, R, C>();
    static_assert(fixed_order::block % (32 * U) == 0);
    V acc[C];
#pragma unroll
    for (int q = 0; q < C; ++q) acc[q] = fixed_order::zero<P, A>(R::identity());
    const std::size_t first = b * fixed_order::block + c * C;
    // Rows k .. k + U - 1 of 32 elements at a time. The C-lane form does not unroll across
    // batches: its U vectors per thread are the loads it keeps in flight.
    const auto rows = [&](std::size_t k) {
        typename R::value_type x[U][C];
        const auto row = src + (first + k);  // one address, constant offsets from it
#pragma unroll
        for (int u = 0; u < U; ++u) load_run<C>(row, 32 * static_cast<std::size_t>(u), x[u]);
#pragma unroll
        for (int u = 0; u < U; ++u)
#pragma unroll
            for (int q = 0; q < C; ++q)
                fixed_order::add<P, A>(acc[q], r.lift(x[u][q], base + first + k + 32 * static_cast<std::size_t>(u) + q));
    };
    if (live) {
        if constexpr (C == 1) {
            for (std::size_t k = 0; k < fixed_order::block; k += 32 * U) rows(k);
        } else {
#pragma unroll 1
            for (std::size_t k = 0; k < fixed_order::block; k += 32 * U) rows(k);
        }
    }
#pragma unroll
    for (int w = 16; w >= C; w /= 2)  // lane j + w sits w / C threads on
#pragma unroll
        for (int q = 0; q < C; ++q) acc[q] = fixed_order::merge<P, A>(acc[q], shfl_down<P, A>(acc[q], w / C));
#pragma unroll
    for (int w = C / 2; w > 0; w /= 2)  // lane j + w in the same thread
#pragma unroll
        for (int q = 0; q < w; ++q) acc[q] = fixed_order::merge<P, A>(acc[q], acc[q + w]);
    return acc[0];
}

// The value of the short last block b (n - b*4096 < 4096 elements), by a whole warp: lane j
// skips the positions past n. Lane 0 returns it.
template <precision P, class R>
__device__ __forceinline__ fixed_order::value_t<P, typename R::accumulator_type> short_block(const R& r, source_t<R> src,
                                                                                     std::size_t n, std::size_t base,
                                                                                     std::size_t b) {
    using A = typename R::accumulator_type;
    fixed_order::value_t<P, A> acc = fixed_order::zero<P, A>(R::identity());
    for (std::size_t i = b * fixed_order::block + threadIdx.x % 32; i < n; i += 32) fixed_order::add<P, A>(acc, r.lift(src[i], base + i));
    return lane_tree<P, A>(acc);
}

// Block values of elements [0, n) of src (global indices base + i; base is a multiple of
// fixed_order::block): v[b] for b < ceil(n / 4096), C lanes per thread (see the top of fixed_order.cuh).
// Units of C blocks, the short last block a unit of its own in the C-lane form; CTA c takes
// the c-th of gridDim.x even shares of the units, its warps a unit each in turn. With
// counters (all 0 at launch; m at most in_launch_max<V>()), each CTA then counts the values it
// stored per group of fold_group<V> (counters[1 + g]; the CTA that completes a group sets
// it back to 0) and folds the groups it completes (fold_group_of): the whole reduction, into
// *d_result, in one launch. A share spans one or two groups, so the folds at the end spread
// over as many CTAs as there are groups.
template <precision P, class R, int C>
__global__ void __launch_bounds__(block_threads)
    fixed_blocks(R r, source_t<R> src, std::size_t n, std::size_t base,
                 fixed_order::value_t<P, typename R::accumulator_type>* __restrict__ v,
                 typename R::result_type* __restrict__ d_result, unsigned* counters) {
    using A = typename R::accumulator_type;
    using V = fixed_order::value_t<P, A>;
    constexpr unsigned per_block = 32 / C;  // threads that share a block
    const unsigned lane = threadIdx.x % 32;
    const unsigned sub = lane / per_block, c = lane % per_block;
    const std::size_t m = fixed_order::block_count(n), full = n / fixed_order::block;
    const std::size_t full_units = C == 1 ? m : (full + C - 1) / C;  // C == 1: the short block included
    const std::size_t units = full_units + (C > 1 && full < m ? 1 : 0);
    // The first block of unit u, for u <= units (units itself: one past the last block). In
    // the C-lane form the last unit of full blocks may hold fewer than C of them, and the
    // short block's unit starts at `full`.
    const auto first_block = [&](std::size_t u) -> std::size_t {
        if (C == 1) return u;
        return u <= full_units ? (u * C < full ? u * C : full) : m;
    };
    const std::size_t share = (units + gridDim.x - 1) / gridDim.x;
    const std::size_t start = static_cast<std::size_t>(blockIdx.x) * share < units ? blockIdx.x * share : units;
    const std::size_t end = start + share < units ? start + share : units;
    for (std::size_t u = start + threadIdx.x / 32; u < end; u += warps_per_cta) {
        if (C > 1 && u * C >= full) {  // the C-lane form's short block
            const auto value = short_block<P>(r, src, n, base, full);
            if (lane == 0) v[full] = value;
            continue;
        }
        const std::size_t b = u * C + sub;
        const bool live = C == 1 || b < full;
        const auto value = C == 1 && b == full ? short_block<P>(r, src, n, base, b)
                                               : full_block<P, R, C>(r, src, base, b, c, live);
        if (c == 0 && live) v[b] = value;
    }
    if (counters == nullptr) return;
    __shared__ alignas(16) V fold_space[fold_group<V>];
    count_and_fold<P>(r, v, m, first_block(start), first_block(end), counters, d_result, fold_space);
}

} // namespace preduce::cuda::detail::fixed
