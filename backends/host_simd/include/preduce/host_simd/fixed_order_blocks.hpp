#pragma once
// The fixed order of preduce/detail/algorithm/fixed_order/order.hpp on host cores, at memory speed: the 32 lanes
// of a block are one row of SIMD registers (4 AVX2 registers of floats; 8 with the
// compensated pairs), compiled for SSE2 and AVX2 like the fast folds (lane_fold.hpp), the
// compensated ones for AVX-512 too, and chosen at run time. Same arithmetic per lane as
// fixed_order::block_value in every form, so the same bits (tests/fixed_order/simd_clones.cpp).
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

#include "preduce/host_simd/namespaces.hpp"
#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/host_simd/lane_fold.hpp"

namespace preduce::host_simd::fixed_order {

// Calls step(j, lift(src[i + j], i + j)) for the lanes j of the row at i: straight into the
// step where the compiler keeps a product apart from the add anyway, else through a
// laundered row (launder_row). (A row array in between for no reason costs: g++ 12 copied an
// identity lift's row through the stack in 16-byte halves and read it back whole, stalling
// every load of the compensated double loop.)
template <class R, class Step>
PREDUCE_NO_CONTRACT inline void lifted_row(const R& r, source_t<R> src, std::size_t i, Step&& step) {
    if constexpr (!laundered_v<R>) {
        PREDUCE_PRAGMA_OMP_SIMD
        for (std::size_t j = 0; j < lanes; ++j) step(j, r.lift(src[i + j], i + j));
    } else {
        typename R::accumulator_type row[lanes];
        PREDUCE_PRAGMA_OMP_SIMD
        for (std::size_t j = 0; j < lanes; ++j) row[j] = r.lift(src[i + j], i + j);
        launder_row<R>(row);
        PREDUCE_PRAGMA_OMP_SIMD
        for (std::size_t j = 0; j < lanes; ++j) step(j, row[j]);
    }
}

// Whether R adds each double of its input as it is (sum and wide_sum of doubles): a lane loop
// then reads x straight from memory, which the compensated loop below must not do twice.
template <class R>
inline constexpr bool lifts_double_as_is_v =
    std::is_same_v<R, sum_reducer<double>> || std::is_same_v<R, wide_sum_reducer<double>>;

// TwoSum of one row of doubles into the compensated lanes (sum, err), on vectors of B bytes
// (the AVX-512 clone's 64) with each vector of x a register value. Written on lanes with x
// read from memory, GCC 12 folds the load of x into s = a + x and loads it again for
// x - (s - a): two loads a vector where one will do, and one load is faster
// (docs/host-folds.md). The additions are two_sum's and
// add()'s, so are the bits; they are spelled out here because GCC drops a vector type's
// attribute where it is a template argument (two_sum<vec> would be two_sum<double>). GCC only:
// clang checks the asm operand's size against this helper's own (baseline) target, where a
// vector wider than 16 bytes has no register; and only where it optimises, which inlines the
// helper into the clone that calls it (flatten): an out-of-line copy has the baseline target
// too, and GCC -O0 refuses its asm.
#if defined(PREDUCE_HOST_AVX2_DISPATCH) && !defined(__clang__) && defined(__OPTIMIZE__)
#define PREDUCE_HOST_TWO_SUM_ROWS 1
template <std::size_t B>
__attribute__((always_inline)) inline void two_sum_row(const double* x_row, double* sum, double* err) noexcept {
    typedef double vec __attribute__((vector_size(B)));
    for (std::size_t q = 0; q < lanes; q += B / sizeof(double)) {
        vec x, a, c;
        std::memcpy(&x, x_row + q, B);
        __asm__("" : "+v"(x));  // x in a register: every use below reads it there
        std::memcpy(&a, sum + q, B);
        std::memcpy(&c, err + q, B);
        const vec s = a + x, bp = s - a;
        c = c + ((a - (s - bp)) + (x - bp));
        std::memcpy(sum + q, &s, B);
        std::memcpy(err + q, &c, B);
    }
}
#endif

// The rounding error of s = a + x by Fast2Sum, from the operand of the larger magnitude:
// three additions, a compare and two selections, where two_sum takes six additions. Both
// are exact while s is finite (Fast2Sum because |hi| >= |lo|), so they give the same error
// and the lanes the same bits. (Where s overflows, TwoSum's error is NaN and this one an
// infinity; the lane tree's TwoSum makes it NaN, and result() reads no error term once s is
// not finite.) For the AVX2 clone: there the compensated double loop is bound by the FP add
// pipes (AMD Zen 1, whose two take a 256-bit add in two halves), and the compare and
// selections go to the other two.
inline double ordered_error(double a, double x, double s) noexcept {
    const bool a_larger = __builtin_fabs(a) >= __builtin_fabs(x);
    const double hi = a_larger ? a : x, lo = a_larger ? x : a;
    return lo - (s - hi);
}

// vector_bytes: the width of the clone that compiles this (32 AVX2, 64 AVX-512), for the
// compensated double loop (two_sum_row, ordered_error); 0 keeps every loop on lanes.
template <precision P, class R, std::size_t vector_bytes = 0>
PREDUCE_NO_CONTRACT void block_values(const R& r, source_t<R> src, std::size_t n, std::size_t b0, std::size_t b1,
                  value_t<P, typename R::accumulator_type>* out) {
    using A = typename R::accumulator_type;
    using V = value_t<P, A>;
    for (std::size_t b = b0; b < b1; ++b) {
        const std::size_t first = b * block;
        if (n - first < block) {  // the short last block
            out[b] = block_value<P>(r, src, n, b);
            continue;
        }
        V lane[lanes];
        using W = wide_t<P, A>;
        if constexpr (P == precision::compensated && !std::is_same_v<W, A>) {
            // Float data, compensated: the lanes are plain doubles until the lane tree (add()
            // only ever touches .s there), kept in their own array so that they vectorise.
            W wide[lanes];
            for (std::size_t j = 0; j < lanes; ++j) wide[j] = zero<P, A>(R::identity()).s;
            for (std::size_t i = first; i < first + block; i += lanes) {
                prefetch_ahead(src, i, lanes * sizeof(typename R::value_type));
                lifted_row(r, src, i, [&](std::size_t j, A x) { wide[j] = wide[j] + W(x); });
            }
            for (std::size_t j = 0; j < lanes; ++j) lane[j] = V{wide[j], W(0)};
        } else if constexpr (P == precision::compensated) {
            // Double data, compensated: the sums and the error terms in arrays of their own
            // (structure of arrays), over which the compiler vectorises TwoSum (as pairs it
            // did not). Six adds an element, so the software prefetch below matters (without
            // it the loop ran at half the deterministic one's speed: openmp, 2^26 doubles).
            W sum[lanes], err[lanes];
            for (std::size_t j = 0; j < lanes; ++j) {
                sum[j] = zero<P, A>(R::identity()).s;
                err[j] = W(0);
            }
            const auto step = [&](std::size_t j, A x) {  // add<P, A>, lane by lane
                if constexpr (vector_bytes == 32) {  // the AVX2 clone: Fast2Sum, same bits
                    const A a = sum[j], s = a + x;
                    sum[j] = s;
                    err[j] = err[j] + ordered_error(a, x, s);
                } else {
                    const pair_sum<A> t = two_sum(sum[j], x);
                    sum[j] = t.s;
                    err[j] = plus(err[j], t.c);
                }
            };
            for (std::size_t i = first; i < first + block; i += lanes) {
                prefetch_ahead(src, i, lanes * sizeof(typename R::value_type));
#if defined(PREDUCE_HOST_TWO_SUM_ROWS)
                if constexpr (vector_bytes == 64 && lifts_double_as_is_v<R>) {
                    two_sum_row<vector_bytes>(src + i, sum, err);
                    continue;
                }
#endif
                lifted_row(r, src, i, step);
            }
            for (std::size_t j = 0; j < lanes; ++j) lane[j] = V{sum[j], err[j]};
        } else {
            for (std::size_t j = 0; j < lanes; ++j) lane[j] = zero<P, A>(R::identity());
            for (std::size_t i = first; i < first + block; i += lanes) {
                // Products and other lifts: software prefetch, as the fast folds do.
                if constexpr (prefetch_helps_v<R>) prefetch_ahead(src, i, lanes * sizeof(typename R::value_type));
                lifted_row(r, src, i, [&](std::size_t j, A x) { add<P, A>(lane[j], x); });
            }
        }
        for (std::size_t w = lanes / 2; w > 0; w /= 2)
            for (std::size_t j = 0; j < w; ++j) lane[j] = merge<P, A>(lane[j], lane[j + w]);
        out[b] = lane[0];
    }
}

#if defined(PREDUCE_HOST_AVX2_DISPATCH)
template <precision P, class R>
__attribute__((target("avx2"), flatten)) PREDUCE_NO_CONTRACT void block_values_avx2(const R& r, source_t<R> src, std::size_t n,
                                                                std::size_t b0, std::size_t b1,
                                                                value_t<P, typename R::accumulator_type>* out) {
    block_values<P, R, 32>(r, src, n, b0, b1, out);
}

// Compensated lanes (both compensated branches above) take the AVX-512 clone where the CPU
// has it: TwoSum's six adds a double, or the float-to-double conversions, keep the AVX2 loop
// short of memory speed, and it spills 5 of a row's 8 error registers (docs/host-folds.md).
// AVX-512 does the same operations lane by lane (so the same bits) in half the
// instructions, with registers for the whole row.
template <precision P, class R>
__attribute__((target(PREDUCE_HOST_AVX512_TARGET), flatten)) PREDUCE_NO_CONTRACT void
block_values_avx512(const R& r, source_t<R> src, std::size_t n, std::size_t b0, std::size_t b1,
                    value_t<P, typename R::accumulator_type>* out) {
    block_values<P, R, 64>(r, src, n, b0, b1, out);
}
#endif

template <precision P, class R>
void host_block_values(const R& r, source_t<R> src, std::size_t n, std::size_t b0, std::size_t b1,
                       value_t<P, typename R::accumulator_type>* out, [[maybe_unused]] bool avx2) {
#if defined(PREDUCE_HOST_AVX2_DISPATCH)
    if constexpr (P == precision::compensated)
        if (avx2 && cpu_has_avx512()) return block_values_avx512<P>(r, src, n, b0, b1, out);
    if (avx2) return block_values_avx2<P>(r, src, n, b0, b1, out);
#endif
    block_values<P>(r, src, n, b0, b1, out);
}

// The whole order on one host thread.
template <precision P, class R>
typename R::result_type reduce_host(const R& r, source_t<R> src, std::size_t n) {
    std::vector<value_t<P, typename R::accumulator_type>> v(block_count(n));
    host_block_values<P>(r, src, n, 0, v.size(), v.data(), use_avx2());
    return finish_blocks<P>(r, v);
}

} // namespace preduce::host_simd::fixed_order
