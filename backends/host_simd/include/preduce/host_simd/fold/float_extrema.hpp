#pragma once
// min, max, argmin and argmax of float and double by the float compare itself, one block of
// extremum_block_bytes (held in L1) at a time. The keys of the reducers (order-preserving
// integers: -0 below +0, NaN winning) cost several instructions a vector; the compare is one.
// A block is first scanned for its extremum m with `x < m ? x : m` lanes (vminps / vmaxps)
// and for NaN and infinity (the block's sum is not finite where it has either; a sum that
// overflows only sends its block to the keys). Where the
// block has neither and m is not zero, the float order is the keys' order at m, so m is the
// block's result: min and max take its key; argmin and argmax take it only where it beats the
// blocks before (then its first index is found by a compare pass over the block, still in
// L1), which on most data is a few blocks in all. A block with a NaN, an infinity or a zero
// extremum is folded by the keys as before (arg_lanes, or the generic lanes). So the result
// is the keys' result, bit for bit: the same on every backend.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstddef>
#include <limits>
#include <type_traits>

#include "preduce/host_simd/namespaces.hpp"
#include "preduce/host_simd/fold/arg.hpp"
#include "preduce/host_simd/fold/lanes.hpp"
#include "preduce/reducers.hpp"

namespace preduce::host_simd {

inline constexpr std::size_t extremum_block_bytes = 16384;

template <class T>
struct extremum_scan {
    T m;         // the block's extremum under the float compare
    bool plain;  // no NaN, no infinity, m not zero: m is also the keys' extremum
};

// The float extremum of p[0, n) in 128 bytes of lanes (four AVX registers), and the sum
// that checks for NaN and infinity in as many more.
template <bool Max, class T>
extremum_scan<T> scan_extremum(const T* p, std::size_t n) {
    constexpr std::size_t L = 128 / sizeof(T);
    constexpr T start = Max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    constexpr U exponent = std::bit_cast<U>(std::numeric_limits<T>::infinity());  // all ones: NaN or infinity
    T m[L];
    U special[L];
    for (std::size_t j = 0; j < L; ++j) {
        m[j] = start;
        special[j] = 0;
    }
    const auto fold = [&](std::size_t j, T x) {
        m[j] = Max ? (m[j] < x ? x : m[j]) : (x < m[j] ? x : m[j]);
        const U b = std::bit_cast<U>(x);
        special[j] |= static_cast<U>(-static_cast<U>((b & exponent) == exponent));
    };
    std::size_t i = 0;
    for (; i + L <= n; i += L) {
        prefetch_ahead(p, i, L * sizeof(T));
        PREDUCE_PRAGMA_OMP_SIMD
        for (std::size_t j = 0; j < L; ++j) fold(j, p[i + j]);
    }
    for (std::size_t j = 0; i < n; ++i, ++j) fold(j, p[i]);
    T best = m[0];
    U any = special[0];
    for (std::size_t j = 1; j < L; ++j) {
        best = Max ? (best < m[j] ? m[j] : best) : (m[j] < best ? m[j] : best);
        any |= special[j];
    }
    return {best, any == 0 && best != 0};
}

// The first i in [begin, end) with p[i] == m (there is one): 32 compares at a time.
template <class T>
std::size_t first_equal(const T* p, std::size_t begin, std::size_t end, T m) {
    constexpr std::size_t L = 32;
    std::size_t i = begin;
    for (; i + L <= end; i += L) {
        int hit = 0;
        PREDUCE_PRAGMA_OMP_SIMD
        for (std::size_t j = 0; j < L; ++j) hit |= p[i + j] == m;
        if (hit) break;
    }
    while (!(p[i] == m)) ++i;
    return i;
}

// The keys' fold of a block that is not plain: what lane_fold gave before this file.
template <class R, class T>
typename R::accumulator_type keys_fold(const R& r, const T* data, std::size_t begin, std::size_t end) {
    if constexpr (std::is_same_v<R, argmin_reducer<T>> && sizeof(T) == 4) return arg_lanes<R, T, false>(r, data, begin, end);
    else if constexpr (std::is_same_v<R, argmax_reducer<T>> && sizeof(T) == 4) return arg_lanes<R, T, true>(r, data, begin, end);
    else return fold_lanes<lane_count<typename R::accumulator_type>, prefetch_helps_v<R>>(r, data, begin, end);
}

template <bool Max, bool Indexed, class R, class T>
typename R::accumulator_type extremum_blocks(const R& r, const T* data, std::size_t begin, std::size_t end) {
    constexpr std::size_t B = extremum_block_bytes / sizeof(T);
    auto acc = R::identity();
    for (std::size_t b0 = begin; b0 < end; b0 += B) {
        const std::size_t b1 = end - b0 < B ? end : b0 + B;
        const extremum_scan<T> s = scan_extremum<Max>(data + b0, b1 - b0);
        if (!s.plain) {
            acc = R::combine(acc, keys_fold(r, data, b0, b1));
        } else if constexpr (Indexed) {
            // Whether m beats the blocks before: their indices are all below b0, so a tie
            // stays with them, as it would in the keys' fold.
            if (R::combine(acc, r.lift(s.m, b0)).index == b0) {
                const std::size_t i = first_equal(data, b0, b1, s.m);
                acc = r.lift(data[i], i);
            }
        } else {
            acc = R::combine(acc, r.lift(s.m, b0));
        }
    }
    return acc;
}

template <class T>
concept float_or_double = std::is_same_v<T, float> || std::is_same_v<T, double>;

template <float_or_double T>
typename min_reducer<T>::accumulator_type lane_fold(const min_reducer<T>& r, const T* data, std::size_t begin,
                                                    std::size_t end) {
    return extremum_blocks<false, false>(r, data, begin, end);
}
template <float_or_double T>
typename max_reducer<T>::accumulator_type lane_fold(const max_reducer<T>& r, const T* data, std::size_t begin,
                                                    std::size_t end) {
    return extremum_blocks<true, false>(r, data, begin, end);
}
template <float_or_double T>
typename argmin_reducer<T>::accumulator_type lane_fold(const argmin_reducer<T>& r, const T* data, std::size_t begin,
                                                       std::size_t end) {
    return extremum_blocks<false, true>(r, data, begin, end);
}
template <float_or_double T>
typename argmax_reducer<T>::accumulator_type lane_fold(const argmax_reducer<T>& r, const T* data, std::size_t begin,
                                                       std::size_t end) {
    return extremum_blocks<true, true>(r, data, begin, end);
}

} // namespace preduce::host_simd
