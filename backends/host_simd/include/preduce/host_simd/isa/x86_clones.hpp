#pragma once
// The x86-64 instruction-set clones of the fold, for builds whose baseline is below AVX2:
// lane_fold_avx2 (AVX2 and F16C) and lane_fold_avx512 (16-bit floats), the forms they take
// beyond lane_fold's (8-byte argmin/argmax, narrow integer sums, 16-bit floats widened by
// instruction), and the CPU checks by which host_fold (lane_fold.hpp) picks one at run time.
// Elsewhere this file declares nothing. lane_fold_avx2 calls the lane_fold overloads by
// qualified name, so the fold files come first, in lane_fold.hpp's order.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "preduce/host_simd/namespaces.hpp"
#include "preduce/host_simd/fold/lanes.hpp"
#include "preduce/host_simd/fold/moments.hpp"
#include "preduce/host_simd/fold/narrow_int_sum.hpp"
#include "preduce/host_simd/fold/count.hpp"
#include "preduce/host_simd/fold/arg.hpp"
#include "preduce/host_simd/fold/float_extrema.hpp"
#include "preduce/detail/core/numeric.hpp"
#include "preduce/half.hpp"
#include "preduce/reducers.hpp"
#include "preduce/source.hpp"
#include "preduce/transforms.hpp"

// The intrinsics' headers, at global scope, where the clones below are compiled.
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(__AVX2__)
#include <cpuid.h>
#include <immintrin.h>
#endif

namespace preduce::host_simd {

// host_fold: lane_fold compiled twice, for the x86-64 baseline (SSE2) and for AVX2, the
// latter chosen at run time when the CPU has it: the AVX2 clone folds at the read probe's
// speed, the baseline short of it (docs/host-folds.md). flatten: GCC otherwise calls the
// baseline lane_fold from the clone.
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(__AVX2__)
#define PREDUCE_HOST_AVX2_DISPATCH 1
// The AVX-512 clones' target (here and in fixed_order_blocks.hpp). It asks g++ for 512-bit
// vectors (its generic tuning uses 256-bit ones); clang refuses that option in a target
// string and uses 512-bit vectors without it.
#if defined(__clang__)
#define PREDUCE_HOST_AVX512_TARGET "avx512f,avx512vl"
#else
#define PREDUCE_HOST_AVX512_TARGET "avx512f,avx512vl,prefer-vector-width=512"
#endif
// 8-byte integer argmin/argmax: AVX2 has the signed 64-bit compare (vpcmpgtq) that SSE2 lacks, so
// only the AVX2 clone takes the rank lanes for double/int64: there they are several times
// faster than the generic fold, which is the faster one in the SSE2 build
// (docs/host-folds.md).
template <class R>
inline constexpr int wide_arg_kind = 0;  // 0: not an 8-byte argmin/argmax; 1: argmin; 2: argmax
template <class T>
    requires(sizeof(T) == 8 && !std::is_floating_point_v<T>)  // double: fold/float_extrema.hpp
inline constexpr int wide_arg_kind<argmin_reducer<T>> = 1;
template <class T>
    requires(sizeof(T) == 8 && !std::is_floating_point_v<T>)
inline constexpr int wide_arg_kind<argmax_reducer<T>> = 2;

// 16-bit floats under a reducer whose lift is that of the same reducer over float32 applied
// to the widened element (sum, wide_sum, prod, sumsq, asum): a round widens 8 elements per
// instruction (F16C's vcvtph2ps for float16, a shift for bfloat16) and lifts the floats. GCC
// does not vectorise to_float(float16) into vcvtph2ps, and its select-based form runs at ~1
// element per ns per core. vcvtph2ps is exact, as to_float is, so the lanes see the same values.
template <class R>
struct over_float {};  // ::type: the same reducer over float32, where it lifts as above
template <template <class> class Red, class T>
    requires(is_half_v<T> && (std::is_same_v<Red<T>, sum_reducer<T>> || std::is_same_v<Red<T>, wide_sum_reducer<T>> ||
                              std::is_same_v<Red<T>, prod_reducer<T>> || std::is_same_v<Red<T>, sumsq_reducer<T>> ||
                              std::is_same_v<Red<T>, asum_reducer<T>>))
struct over_float<Red<T>> {
    using type = Red<float>;
};
template <class R>
concept lifts_over_float = requires { typename over_float<R>::type; } &&
                           std::is_same_v<typename over_float<R>::type::accumulator_type, typename R::accumulator_type>;

template <class T>
__attribute__((target("avx2,f16c"))) inline __m256 widen8(const T* p) noexcept {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    if constexpr (std::is_same_v<T, float16>) return _mm256_cvtph_ps(h);
    else return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
}

// bfloat16 takes 16 elements a load: a 32-bit lane's upper half is an odd element's float,
// its lower half shifted up the even one's (so lanes take the elements of a round in the
// order 0, 2, .., 14, 1, 3, .., 15: a fixed assignment, as any lane order is).
struct widened_half_round {
    template <std::size_t L, class R>
    __attribute__((target("avx2,f16c"))) void operator()(const R&, const typename R::value_type* data,
                                                                       std::size_t i,
                                                                       typename R::accumulator_type* lane) const {
        static_assert(L % 16 == 0);
        using F = typename over_float<R>::type;
        alignas(32) float w[L];
        if constexpr (std::is_same_v<typename R::value_type, bfloat16>) {
            const __m256i upper = _mm256_set1_epi32(static_cast<int>(0xffff0000u));
            for (std::size_t k = 0; k < L; k += 16) {
                const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data + i + k));
                _mm256_store_ps(w + k, _mm256_castsi256_ps(_mm256_slli_epi32(v, 16)));
                _mm256_store_ps(w + k + 8, _mm256_castsi256_ps(_mm256_and_si256(v, upper)));
            }
        } else {
            for (std::size_t k = 0; k < L; k += 8) _mm256_store_ps(w + k, widen8(data + i + k));
        }
        PREDUCE_PRAGMA_OMP_SIMD
        for (std::size_t j = 0; j < L; ++j) lane[j] = R::combine(lane[j], F{}.lift(w[j], i + j));
    }
};

// The AVX-512 clone's 16-bit float round (the reducers other than sum): 16 elements a
// widening instruction, into the lanes widened_half_round gives them (bfloat16: each 16's
// evens, then its odds, by one permute), so that both clones give the same bits.
// (GCC 12 warns that the undefined vector its AVX-512 intrinsics start from may be used
// uninitialized; nothing here reads it.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
struct widened_half_round512 {
    template <std::size_t L, class R>
    __attribute__((target(PREDUCE_HOST_AVX512_TARGET))) void operator()(const R&, const typename R::value_type* data,
                                                                         std::size_t i,
                                                                         typename R::accumulator_type* lane) const {
        static_assert(L % 16 == 0);
        using F = typename over_float<R>::type;
        alignas(64) float w[L];
        const __m512i evens_then_odds = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
        for (std::size_t k = 0; k < L; k += 16) {
            const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data + i + k));
            if constexpr (std::is_same_v<typename R::value_type, bfloat16>) {
                const __m512 f = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
                _mm512_store_ps(w + k, _mm512_permutexvar_ps(evens_then_odds, f));
            } else {
                _mm512_store_ps(w + k, _mm512_cvtph_ps(h));
            }
        }
        PREDUCE_PRAGMA_OMP_SIMD
        for (std::size_t j = 0; j < L; ++j) lane[j] = R::combine(lane[j], F{}.lift(w[j], i + j));
    }
};

// The sum of 16-bit floats where the CPU has AVX-512: fold_lanes<32> with widened_half_round
// (the same lanes, adds and tree, so the same bits), its 32 lanes kept in two registers in
// place of an array, which leaves a load, a widening and an add per 16 elements, as in a bare
// loop: on AVX-512 CPUs such a loop comes closer to the read probe than the 256-bit form
// (docs/host-folds.md).
// float16: lanes 0-15 and 16-31 in order. bfloat16: a 32-element load's evens (the shifted
// lower halves) go to lanes 0-7 and 16-23, its odds (the masked upper halves) to 8-15 and
// 24-31, where widened_half_round puts them; two permutes bring the lanes back in order once,
// for the tail and the tree.
template <class H>
__attribute__((target(PREDUCE_HOST_AVX512_TARGET))) float half_sum_avx512(const H* data, std::size_t begin,
                                                                          std::size_t end) {
    using R = sum_reducer<H>;
    constexpr std::size_t L = 32;
    static_assert(lane_count<typename R::accumulator_type> == L);
    __m512 a = _mm512_set1_ps(R::identity()), b = a;
    std::size_t i = begin;
    if constexpr (std::is_same_v<H, bfloat16>) {
        const __m512i upper = _mm512_set1_epi32(static_cast<int>(0xffff0000u));
        for (; i + L <= end; i += L) {
            const __m512i v = _mm512_loadu_si512(data + i);
            a = _mm512_add_ps(a, _mm512_castsi512_ps(_mm512_slli_epi32(v, 16)));
            b = _mm512_add_ps(b, _mm512_castsi512_ps(_mm512_and_si512(v, upper)));
        }
        const __m512i first = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);
        const __m512i second = _mm512_setr_epi32(8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31);
        const __m512 lanes_low = _mm512_permutex2var_ps(a, first, b), lanes_high = _mm512_permutex2var_ps(a, second, b);
        a = lanes_low;
        b = lanes_high;
    } else {
        for (; i + L <= end; i += L) {
            a = _mm512_add_ps(a, _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(data + i))));
            b = _mm512_add_ps(b, _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(data + i + 16))));
        }
    }
    alignas(64) float lane[L];
    _mm512_store_ps(lane, a);
    _mm512_store_ps(lane + 16, b);
    return finish_lanes<L>(R{}, data, i, end, lane);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

// Sums of 8- and 16-bit integers in fewer instructions a byte than the widening lanes of
// lane_fold (two vCPUs may share one physical core, where that decides the speed): unsigned
// bytes with vpsadbw, which adds 8 of them into a 64-bit lane; signed bytes with vpmaddubsw
// by ones, which adds pairs into 16-bit lanes; 16-bit integers with vpmaddwd by ones, which
// adds pairs into 32-bit lanes (unsigned ones offset by 32768). Narrow lanes move into
// 64-bit lanes before any can overflow. Exact: the wrapped 64-bit sum, as every other
// integer sum.
__attribute__((target("avx2"))) inline std::uint64_t sum_lanes(__m256i v) noexcept {
    alignas(32) std::uint64_t l[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(l), v);
    return l[0] + l[1] + l[2] + l[3];
}

// acc (four 64-bit lanes) plus the eight signed 32-bit lanes of s, widened.
__attribute__((target("avx2"))) inline __m256i add_widened(__m256i acc, __m256i s) noexcept {
    return _mm256_add_epi64(acc, _mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(s)),
                                                  _mm256_cvtepi32_epi64(_mm256_extracti128_si256(s, 1))));
}

// 32 bytes of elements, offset to what the sum instruction takes: unsigned 16-bit integers
// to signed.
template <class T>
__attribute__((target("avx2"))) inline __m256i offset_load(const T* p) noexcept {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    if constexpr (sizeof(T) == 2 && std::is_unsigned_v<T>) return _mm256_xor_si256(v, _mm256_set1_epi16(static_cast<short>(0x8000)));
    else return v;
}

template <class T>
__attribute__((target("avx2"))) std::uint64_t narrow_int_sum_avx2(const T* data, std::size_t begin, std::size_t end) {
    constexpr bool sign = std::is_signed_v<T>;
    const __m256i zero = _mm256_setzero_si256();
    constexpr std::size_t per = 64 / sizeof(T);  // elements a round: two 32-byte loads
    __m256i t0 = zero, t1 = zero;
    std::size_t i = begin;
    if constexpr (sizeof(T) == 1 && sign) {
        // vpmaddubsw(1, x) adds signed bytes in pairs into 16-bit lanes: one instruction a
        // load, where offsetting to unsigned and vpsadbw take two, and the bytes come from
        // memory faster the fewer instructions wait behind each load. 64 rounds keep a lane
        // within 64 * 256 < 2^15; vpmaddwd then widens a block to 32 bits, and to 64.
        const __m256i ones8 = _mm256_set1_epi8(1), ones16 = _mm256_set1_epi16(1);
        constexpr std::size_t round = 128;
        while (end - i >= round) {
            const std::size_t rounds = std::min<std::size_t>((end - i) / round, 64);
            __m256i s0 = zero, s1 = zero, s2 = zero, s3 = zero;
            for (std::size_t r = 0; r < rounds; ++r, i += round) {
                s0 = _mm256_add_epi16(s0, _mm256_maddubs_epi16(ones8, offset_load(data + i)));
                s1 = _mm256_add_epi16(s1, _mm256_maddubs_epi16(ones8, offset_load(data + i + 32)));
                s2 = _mm256_add_epi16(s2, _mm256_maddubs_epi16(ones8, offset_load(data + i + 64)));
                s3 = _mm256_add_epi16(s3, _mm256_maddubs_epi16(ones8, offset_load(data + i + 96)));
            }
            t0 = add_widened(t0, _mm256_add_epi32(_mm256_madd_epi16(s0, ones16), _mm256_madd_epi16(s1, ones16)));
            t1 = add_widened(t1, _mm256_add_epi32(_mm256_madd_epi16(s2, ones16), _mm256_madd_epi16(s3, ones16)));
        }
    } else if constexpr (sizeof(T) == 1) {
        for (; end - i >= per; i += per) {
            t0 = _mm256_add_epi64(t0, _mm256_sad_epu8(offset_load(data + i), zero));
            t1 = _mm256_add_epi64(t1, _mm256_sad_epu8(offset_load(data + i + 32), zero));
        }
    } else {
        const __m256i ones = _mm256_set1_epi16(1);
        while (end - i >= per) {
            const std::size_t rounds = std::min<std::size_t>((end - i) / per, std::size_t{1} << 14);
            __m256i s0 = zero, s1 = zero;  // |a lane| <= 2^16 a round
            for (std::size_t r = 0; r < rounds; ++r, i += per) {
                s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(offset_load(data + i), ones));
                s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(offset_load(data + i + 16), ones));
            }
            t0 = add_widened(t0, s0);
            t1 = add_widened(t1, s1);
        }
    }
    std::uint64_t total = sum_lanes(_mm256_add_epi64(t0, t1));
    // Add back the offset that made unsigned 16-bit elements signed: 32768 an element.
    if constexpr (sizeof(T) == 2 && !sign) total += 32768 * (i - begin);
    for (; i < end; ++i) total += static_cast<std::uint64_t>(static_cast<std::int64_t>(data[i]));
    return total;
}

template <class R>
__attribute__((target("avx2,f16c"), flatten)) typename R::accumulator_type lane_fold_avx2(const R& r, source_t<R> data,
                                                                                         std::size_t begin,
                                                                                         std::size_t end) {
    if constexpr (wide_arg_kind<R> != 0)
        return arg_lanes<R, typename R::value_type, wide_arg_kind<R> == 2>(r, data, begin, end);
    else if constexpr (is_narrow_int_sum_v<R>)
        return narrow_int_sum_avx2(data, begin, end);
    else if constexpr (lifts_over_float<R>)
        return fold_lanes<lane_count<typename R::accumulator_type>, prefetch_helps_v<R>>(r, data, begin, end,
                                                                                        widened_half_round{});
    else
        return ::preduce::host_simd::lane_fold(r, data, begin, end);
}
// 16-bit floats under the reducers that lift them as float32 (lifts_over_float), where the CPU
// has AVX-512: the same lanes and adds as lane_fold_avx2's, so the same bits.
template <class R>
    requires lifts_over_float<R>
__attribute__((target(PREDUCE_HOST_AVX512_TARGET), flatten)) typename R::accumulator_type
lane_fold_avx512([[maybe_unused]] const R& r, source_t<R> data, std::size_t begin, std::size_t end) {
    if constexpr (std::is_same_v<R, sum_reducer<typename R::value_type>>) return half_sum_avx512(data, begin, end);
    else return fold_lanes<lane_count<typename R::accumulator_type>, prefetch_helps_v<R>>(r, data, begin, end,
                                                                                    widened_half_round512{});
}

// AVX2 and F16C (every AVX2 CPU has both; the clone is compiled for the pair).
// F16C is read from CPUID (leaf 1, ECX bit 29): Clang's __builtin_cpu_supports does not name it.
inline bool cpu_has_avx2() noexcept {
    static const bool yes = [] {
        unsigned a = 0, b = 0, c = 0, d = 0;
        const bool f16c = __get_cpuid(1, &a, &b, &c, &d) != 0 && (c & bit_F16C) != 0;
        return f16c && __builtin_cpu_supports("avx2");
    }();
    return yes;
}
// The AVX-512 clones (lane_fold_avx512, and the compensated fixed-order folds' in
// fixed_order_blocks.hpp) need these.
inline bool cpu_has_avx512() noexcept {
    static const bool yes = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
    return yes;
}
#endif

} // namespace preduce::host_simd
