#pragma once
// The fold of argmin/argmax: integer ranks in SIMD lanes with branch-free selects (arg_rank,
// arg_lanes), so that the loop vectorises. The lane_fold overloads take them for 4-byte
// elements; the AVX2 clone (isa/x86_clones.hpp) also for 8-byte ones.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "preduce/host_simd/namespaces.hpp"
#include "preduce/host_simd/fold/lanes.hpp"
#include "preduce/reducers.hpp"

namespace preduce::host_simd {

// argmin/argmax of integers (and of float blocks with a NaN, an infinity or a zero
// extremum: fold/float_extrema.hpp): each lane keeps the best "rank" (a signed integer as wide as the element
// whose order is the reducer's order: NaN lowest, then ordered_less with -0 < +0; argmax
// uses the bitwise complement) and the iteration where it was seen. Strict < keeps the
// earliest index within a lane; the lanes are then combined with the reducer's own
// combine (lowest index on ties). Branch-free selects, so the loop vectorises. Only for
// 4-byte elements: SSE2 has no 64-bit integer compare, so for double/int64 the
// vectoriser gives up and the generic fold is as fast.
template <class T>
using rank_t = std::conditional_t<sizeof(T) == 8, std::int64_t, std::int32_t>;

template <class T, bool Max>
constexpr rank_t<T> arg_rank(T x) noexcept {
    using S = rank_t<T>;
    S r;
    if constexpr (std::is_floating_point_v<T>) {
        // Integer-only, so that the compiler vectorises it with the integer selects below:
        // negative values get their magnitude bits flipped (sign-magnitude -> two's
        // complement order, -0 just below +0); NaN (magnitude above infinity's) ranks lowest.
        constexpr S smax = std::numeric_limits<S>::max();
        constexpr S inf_bits = std::bit_cast<S>(std::numeric_limits<T>::infinity());
        const S b = std::bit_cast<S>(x);
        r = b ^ ((b >> (8 * sizeof(S) - 1)) & smax);
        if constexpr (Max) r = ~r;
        const S nan_mask = -static_cast<S>((b & smax) > inf_bits);
        return (r & ~nan_mask) | (std::numeric_limits<S>::min() & nan_mask);
    } else {
        if constexpr (std::is_unsigned_v<T>) r = static_cast<S>(x ^ (T(1) << (8 * sizeof(T) - 1)));
        else r = static_cast<S>(x);
        return Max ? ~r : r;
    }
}

template <class R, class T, bool Max>
typename R::accumulator_type arg_lanes(const R& red, const T* data, std::size_t begin, std::size_t end) {
    using S = rank_t<T>;
    constexpr std::size_t L = 64 / sizeof(T);  // 16 lanes: 4 SSE2 registers of ranks + 4 of iterations
    constexpr std::size_t max_iters = std::size_t{1} << (8 * sizeof(S) - 2);
    auto acc = R::identity();
    std::size_t i = begin;
    while (end - i >= L) {
        std::size_t iters = (end - i) / L;
        if (iters > max_iters) iters = max_iters;
        S best[L], at[L];
        for (std::size_t j = 0; j < L; ++j) { best[j] = arg_rank<T, Max>(data[i + j]); at[j] = 0; }
        for (std::size_t k = 1; k < iters; ++k) {
            const T* p = data + i + k * L;
            prefetch_ahead(p, 0, L * sizeof(T));
            PREDUCE_PRAGMA_OMP_SIMD
            for (std::size_t j = 0; j < L; ++j) {
                const S r = arg_rank<T, Max>(p[j]);
                const bool take = r < best[j];
                best[j] = take ? r : best[j];
                at[j] = take ? static_cast<S>(k) : at[j];
            }
        }
        for (std::size_t j = 0; j < L; ++j) {
            const std::size_t idx = i + static_cast<std::size_t>(at[j]) * L + j;
            acc = R::combine(acc, red.lift(data[idx], idx));
        }
        i += iters * L;
    }
    for (; i < end; ++i) acc = R::combine(acc, red.lift(data[i], i));
    return acc;
}

template <class T>
    requires(sizeof(T) == 4 && !std::is_floating_point_v<T>)  // floats: fold/float_extrema.hpp
typename argmin_reducer<T>::accumulator_type lane_fold(const argmin_reducer<T>& r, const T* data, std::size_t begin,
                                                       std::size_t end) {
    return arg_lanes<argmin_reducer<T>, T, false>(r, data, begin, end);
}
template <class T>
    requires(sizeof(T) == 4 && !std::is_floating_point_v<T>)  // floats: fold/float_extrema.hpp
typename argmax_reducer<T>::accumulator_type lane_fold(const argmax_reducer<T>& r, const T* data, std::size_t begin,
                                                       std::size_t end) {
    return arg_lanes<argmax_reducer<T>, T, true>(r, data, begin, end);
}

} // namespace preduce::host_simd
