#pragma once
// The inner loop of the host backends. A plain left fold keeps one dependency chain
// (one add in flight every few cycles); here element i goes to lane i % L, the lanes
// are independent accumulators the compiler maps onto SIMD registers, and they are
// combined at the end in a fixed pairwise pattern. That reorders operands, so reducers
// that are not commutative (is_commutative_v) get a plain left fold instead.
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

#include "preduce/custom.hpp"
#include "preduce/detail/numeric.hpp"
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

namespace preduce::detail {

// Software prefetch 8 KiB ahead of the loads. Folds that spend a few instructions per
// element (float min/max keys, minmax, argmin) otherwise leave the hardware prefetcher
// behind: on a 2-core AMD EPYC VM (AVX2) one core's float max read 2^26 floats at 32 GB/s
// without it and 38.5 GB/s with it, against 40 GB/s for the sum (which it leaves alone).
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
// F16C, below); the last partial round and the tree are the same for every Round.
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

// moments: blocks small enough to stay in L1 are read twice, once for their mean and
// once for the squared deviations from it (the two-pass formula, the most accurate
// there is), and the blocks' moments are merged pairwise (Chan). Welford's update per
// element would cost two divisions per element.
template <class T>
detail::moments_acc lane_fold(const moments_reducer<T>&, const T* data, std::size_t begin, std::size_t end) {
    constexpr std::size_t block = 4096, L = 16;
    moments_acc acc{0.0, 0.0, 0.0};
    const auto welford = [&](std::size_t b, std::size_t e) {
        for (std::size_t k = b; k < e; ++k) acc = merge_moments(acc, {1.0, static_cast<double>(widen(data[k])), 0.0});
    };
    for (std::size_t b = begin; b < end; b += block) {
        const std::size_t e = end - b < block ? end : b + block;
        double s[L] = {};
        std::size_t i = b;
        for (; i + L <= e; i += L) {
            PREDUCE_PRAGMA_OMP_SIMD
            for (std::size_t j = 0; j < L; ++j) s[j] += static_cast<double>(widen(data[i + j]));
        }
        for (std::size_t j = 0; i + j < e; ++j) s[j] += static_cast<double>(widen(data[i + j]));
        for (std::size_t w = L / 2; w > 0; w /= 2)
            for (std::size_t j = 0; j < w; ++j) s[j] += s[j + w];
        const double len = static_cast<double>(e - b);
        const double mean = s[0] / len;
        if (!(mean - mean == 0.0)) {
            // An infinity, a NaN, or a block sum beyond double's range (elements near
            // DBL_MAX): Welford's update, which never forms the sum, decides.
            welford(b, e);
            continue;
        }
        // Second pass: deviations and their squares. The deviations' sum corrects the
        // rounding of the mean (the corrected two-pass formula of Chan, Golub and
        // LeVeque): constant data then get their own value as mean and variance 0.
        double q[L] = {}, c[L] = {};
        i = b;
        for (; i + L <= e; i += L) {
            PREDUCE_PRAGMA_OMP_SIMD
            for (std::size_t j = 0; j < L; ++j) {
                const double d = static_cast<double>(widen(data[i + j])) - mean;
                c[j] += d;
                q[j] += d * d;
            }
        }
        for (std::size_t j = 0; i + j < e; ++j) {
            const double d = static_cast<double>(widen(data[i + j])) - mean;
            c[j] += d;
            q[j] += d * d;
        }
        for (std::size_t w = L / 2; w > 0; w /= 2)
            for (std::size_t j = 0; j < w; ++j) {
                c[j] += c[j + w];
                q[j] += q[j + w];
            }
        if (!(q[0] - q[0] == 0.0)) {
            // Squared deviations beyond double's range (elements ~1e154 apart): the
            // correction below would form inf - inf, a NaN that the clamp would turn into a
            // variance of 0. Welford's update adds only non-negative terms: m2 is +inf.
            welford(b, e);
            continue;
        }
        const double m2 = q[0] - c[0] * (c[0] / len);
        acc = merge_moments(acc, {len, mean + c[0] / len, m2 > 0.0 ? m2 : 0.0});
    }
    return acc;
}

// Whether R is a sum of 8- or 16-bit integers (sum or wide_sum: both add in 64 bits).
template <class R>
inline constexpr bool is_narrow_int_sum_v = false;
template <class T>
    requires(std::is_integral_v<T> && sizeof(T) <= 2)
inline constexpr bool is_narrow_int_sum_v<sum_reducer<T>> = true;
template <class T>
    requires(std::is_integral_v<T> && sizeof(T) <= 2)
inline constexpr bool is_narrow_int_sum_v<wide_sum_reducer<T>> = true;

// Sums of 8- and 16-bit integers: lanes twice as wide as the element (16-bit lanes for
// bytes, 32-bit for 16-bit integers), which the vectoriser widens to in one step, added
// into 32-bit and then into the 64-bit total before any lane can overflow. A 64-bit lane
// per element would take three widening steps for bytes and hold a quarter as many
// elements per register. The total is the exact sum, as with 64-bit lanes throughout.
template <class T>
    requires(std::is_integral_v<T> && sizeof(T) < 4)
typename sum_reducer<T>::accumulator_type lane_fold(const sum_reducer<T>&, const T* data, std::size_t begin,
                                                    std::size_t end) {
    using A = typename sum_reducer<T>::accumulator_type;  // the unsigned 64-bit twin
    constexpr bool sign = std::is_signed_v<T>;
    using W = std::conditional_t<sizeof(T) == 1, std::conditional_t<sign, std::int16_t, std::uint16_t>,
                                 std::conditional_t<sign, std::int32_t, std::uint32_t>>;
    using D = std::conditional_t<sign, std::int32_t, std::uint32_t>;
    constexpr std::size_t L = 64;
    // Rounds a W lane takes without overflow (bytes: 255 * 128 < 2^15; 16-bit: 2^15 * 2^16
    // < 2^31 unsigned, 2^15 * 2^15 signed), and W flushes a D lane takes (bytes: 2^15 *
    // 2^15 < 2^31; for 16-bit elements W is D and one flush is all).
    constexpr std::size_t rounds = sizeof(T) == 1 ? 255 : std::size_t{1} << 15;
    constexpr std::size_t flushes = sizeof(T) == 1 ? std::size_t{1} << 15 : 1;
    A total = 0;
    std::size_t i = begin;
    while (end - i >= L) {
        D wide[L] = {};
        for (std::size_t f = 0; f < flushes && end - i >= L; ++f) {
            const std::size_t span = (end - i) / L;
            const std::size_t stop = i + L * (span < rounds ? span : rounds);
            W lane[L] = {};
            for (; i < stop; i += L) {
                prefetch_ahead(data, i, L * sizeof(T));
                PREDUCE_PRAGMA_OMP_SIMD
                for (std::size_t j = 0; j < L; ++j) lane[j] = static_cast<W>(lane[j] + static_cast<W>(data[i + j]));
            }
            PREDUCE_PRAGMA_OMP_SIMD
            for (std::size_t j = 0; j < L; ++j) wide[j] += static_cast<D>(lane[j]);
        }
        for (std::size_t j = 0; j < L; ++j) total += static_cast<A>(static_cast<std::int64_t>(wide[j]));
    }
    for (; i < end; ++i) total += static_cast<A>(static_cast<std::int64_t>(data[i]));
    return total;
}

// count_if: the predicate's kind is a run-time value; switching on it per element (a
// jump table inside the loop) keeps the generic fold scalar. Switch once, then count
// with lane counters as wide as the element, so the compare mask and the counter add
// share vector lanes (4 x 32-bit per SSE2 register for float/int32). Exact: a sum of 0/1.
template <class T, class Pred>
std::uint64_t count_lanes(const T* data, std::size_t begin, std::size_t end, Pred pred) {
    using C = std::conditional_t<sizeof(T) >= 8, std::uint64_t, std::uint32_t>;
    constexpr std::size_t L = 128 / sizeof(T);
    constexpr std::size_t block = std::size_t{1} << 30;  // per-lane counts stay < 2^32
    std::uint64_t total = 0;
    std::size_t i = begin;
    while (end - i >= L) {
        const std::size_t span = (end - i) / L * L;
        const std::size_t stop = i + (span < block ? span : block);
        C cnt[L] = {};
        for (; i < stop; i += L) {
            PREDUCE_PRAGMA_OMP_SIMD
            for (std::size_t j = 0; j < L; ++j) cnt[j] += pred(data[i + j]) ? C(1) : C(0);
        }
        for (std::size_t j = 0; j < L; ++j) total += cnt[j];
    }
    for (; i < end; ++i) total += pred(data[i]) ? 1u : 0u;
    return total;
}

// Elements and thresholds compare by value, as predicate<T> does (16-bit floats widened).
template <class T>
std::uint64_t lane_fold(const count_reducer<T>& r, const T* data, std::size_t begin, std::size_t end) {
    const auto a = widen(r.pred.a), b = widen(r.pred.b);
    switch (r.pred.kind) {
    case predicate_kind::equal: return count_lanes(data, begin, end, [a](T x) { return widen(x) == a; });
    case predicate_kind::not_equal: return count_lanes(data, begin, end, [a](T x) { return widen(x) != a; });
    case predicate_kind::less: return count_lanes(data, begin, end, [a](T x) { return widen(x) < a; });
    case predicate_kind::less_equal: return count_lanes(data, begin, end, [a](T x) { return widen(x) <= a; });
    case predicate_kind::greater: return count_lanes(data, begin, end, [a](T x) { return widen(x) > a; });
    case predicate_kind::greater_equal: return count_lanes(data, begin, end, [a](T x) { return widen(x) >= a; });
    case predicate_kind::in_range:
        return count_lanes(data, begin, end, [a, b](T x) { return a <= widen(x) && widen(x) < b; });
    case predicate_kind::is_nan: return count_lanes(data, begin, end, [](T x) { return is_nan(x); });
    }
    return 0;
}

// argmin/argmax: each lane keeps the best "rank" (a signed integer as wide as the element
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
    requires(sizeof(T) == 4)
typename argmin_reducer<T>::accumulator_type lane_fold(const argmin_reducer<T>& r, const T* data, std::size_t begin,
                                                       std::size_t end) {
    return arg_lanes<argmin_reducer<T>, T, false>(r, data, begin, end);
}
template <class T>
    requires(sizeof(T) == 4)
typename argmax_reducer<T>::accumulator_type lane_fold(const argmax_reducer<T>& r, const T* data, std::size_t begin,
                                                       std::size_t end) {
    return arg_lanes<argmax_reducer<T>, T, true>(r, data, begin, end);
}

// host_fold: lane_fold compiled twice, for the x86-64 baseline (SSE2) and for AVX2, the
// latter chosen at run time when the CPU has it. One core folded 2^26 floats at 38 GB/s
// with SSE2 against a 43 GB/s AVX2 read probe on a 2-core AMD EPYC VM, and 42.6 GB/s
// with the AVX2 clone (flatten: GCC otherwise calls the baseline lane_fold from it).
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(__AVX2__)
#define PREDUCE_HOST_AVX2_DISPATCH 1
#include <cpuid.h>
#include <immintrin.h>
// The AVX-512 clones' target (here and in fixed_order_blocks.hpp). It asks g++ for 512-bit
// vectors (its generic tuning uses 256-bit ones); clang refuses that option in a target
// string and uses 512-bit vectors without it.
#if defined(__clang__)
#define PREDUCE_HOST_AVX512_TARGET "avx512f,avx512vl"
#else
#define PREDUCE_HOST_AVX512_TARGET "avx512f,avx512vl,prefer-vector-width=512"
#endif
// 8-byte argmin/argmax: AVX2 has the signed 64-bit compare (vpcmpgtq) that SSE2 lacks, so
// only the AVX2 clone takes the rank lanes for double/int64 (one core: 7.7 -> 39 GB/s on
// 2^26 doubles; in the SSE2 build the generic fold is faster).
template <class R>
inline constexpr int wide_arg_kind = 0;  // 0: not an 8-byte argmin/argmax; 1: argmin; 2: argmax
template <class T>
    requires(sizeof(T) == 8)
inline constexpr int wide_arg_kind<argmin_reducer<T>> = 1;
template <class T>
    requires(sizeof(T) == 8)
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
// loop (on an AVX-512 CPU the 256-bit form ran at 0.83-0.95 of the read probe, a bare 512-bit
// loop at 0.87-1.04: 2 threads, 2^27 elements, studies/narrow_sum_loops.cpp).
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
        return ::preduce::detail::lane_fold(r, data, begin, end);
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

template <class R>
typename R::accumulator_type host_fold(const R& r, source_t<R> data, std::size_t begin, std::size_t end,
                                       [[maybe_unused]] bool avx2) {
#if defined(PREDUCE_HOST_AVX2_DISPATCH)
    if constexpr (lifts_over_float<R>)
        if (avx2 && cpu_has_avx512()) return lane_fold_avx512(r, data, begin, end);
    if (avx2) return lane_fold_avx2(r, data, begin, end);
#endif
    return ::preduce::detail::lane_fold(r, data, begin, end);
}

inline bool use_avx2() noexcept {
#if defined(PREDUCE_HOST_AVX2_DISPATCH)
    return cpu_has_avx2();
#else
    return false;
#endif
}

} // namespace preduce::detail
