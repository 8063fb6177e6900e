// The host SIMD folds of the fixed order (preduce/host_simd/fixed_order_blocks.hpp) are
// compiled several times (the baseline, an AVX2 clone and, for the compensated sums, an
// AVX-512 clone) and chosen at run time by what the CPU has, so one machine runs only one
// of them in the backends. Here every clone this CPU can run is called directly, on every
// block of fresh random data, and must give the bits of fixed_order::block_value, the one-lane
// reference every backend's fixed order must equal.
// The same for the fast folds of 16-bit floats (preduce/host_simd/lane_fold.hpp), whose
// AVX-512 clone must give the AVX2 clone's bits.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "preduce/host_simd/fixed_order_blocks.hpp"
#include "preduce/preduce.hpp"
#include "support/data.hpp"

using namespace preduce;
namespace fixed_order = preduce::host_simd::fixed_order;  // and, through it, preduce::detail::fixed_order

namespace {

template <class V>
bool same_bits(const V& a, const V& b) {
    return std::memcmp(&a, &b, sizeof(V)) == 0;
}

// Whether a block value (or a result) has the reference's bits, where a NaN matches any
// NaN: which NaN an addition returns is not in the order (see fixed_order::result).
template <class T>
bool same_number_bits(T got, T want) {
    return std::isnan(want) ? std::isnan(got) : same_bits(got, want);
}
template <class V>
bool same_pinned_bits(const V& got, const V& want) {
    if constexpr (std::is_class_v<V>) return same_number_bits(got.s, want.s) && same_number_bits(got.c, want.c);
    else return same_number_bits(got, want);
}

// Every block of src[0, n) by each clone this CPU runs, against the reference block by block,
// and the result of the blocks' tree.
template <precision P, class R>
void check_clones(const R& r, source_t<R> src, std::size_t n) {
    using V = fixed_order::value_t<P, typename R::accumulator_type>;
    const std::size_t blocks = fixed_order::block_count(n);
    std::vector<V> want(blocks);
    for (std::size_t b = 0; b < blocks; ++b) want[b] = fixed_order::block_value<P>(r, src, n, b);
    const auto finished = [&](std::vector<V> v) { return fixed_order::finish_blocks<P>(r, v); };  // merges v in place
    const auto want_result = finished(want);

    const auto check = [&](const std::string& clone, auto&& fold) {
        std::vector<V> got(blocks);
        fold(got.data());
        std::size_t differ = 0;
        for (std::size_t b = 0; b < blocks; ++b) differ += same_pinned_bits(got[b], want[b]) ? 0 : 1;
        const auto got_result = finished(got);
        INFO(clone << ": " << differ << " of " << blocks << " blocks differ from fixed_order::block_value; result "
                   << got_result << ", reference " << want_result);
        CHECK(differ == 0);
        CHECK(same_pinned_bits(got_result, want_result));
    };
    check("baseline", [&](V* out) { fixed_order::block_values<P>(r, src, n, 0, blocks, out); });
#if defined(PREDUCE_HOST_AVX2_DISPATCH)
    if (host_simd::cpu_has_avx2()) {
        check("avx2", [&](V* out) { fixed_order::block_values_avx2<P>(r, src, n, 0, blocks, out); });
        if constexpr (P == precision::compensated) {
            if (host_simd::cpu_has_avx512())
                check("avx512", [&](V* out) { fixed_order::block_values_avx512<P>(r, src, n, 0, blocks, out); });
            else
                WARN("this CPU has no AVX-512: the AVX-512 clone is not checked here");
        }
    }
#else
    WARN("built for AVX2 or better: no run-time clones to compare");
#endif
}

// Sizes: one short block, whole blocks, and whole blocks plus a short last one. Data: random
// values of mixed signs and exponents (so that either operand of an addition may be the
// larger), then the same with non-finite blocks: one that overflows to +inf, one to -inf,
// and one each with an infinity, a NaN, and both infinities.
template <precision P, class T>
void check_every_size() {
    for (const std::size_t n : {std::size_t{1000}, 8 * fixed_order::block, 37 * fixed_order::block + 777}) {
        for (const bool non_finite : {false, true}) {
            auto x = test::random_values<T>(n, n);
            const auto y = test::random_values<T>(n, n + 1);
            if (non_finite) {
                const T big = std::numeric_limits<T>::max() / 4, inf = std::numeric_limits<T>::infinity();
                const std::size_t last = n - 1;
                // Eight in one lane: a lane of T overflows (a double lane of floats does not,
                // but its result overflows when rounded to float).
                for (std::size_t k = 0; k < 8; ++k) {
                    x[std::min(fixed_order::block + fixed_order::lanes * k, last)] = big;
                    x[std::min(2 * fixed_order::block + fixed_order::lanes * k + 1, last)] = -big;
                }
                x[std::min(3 * fixed_order::block + 11, last)] = inf;
                x[std::min(4 * fixed_order::block + 13, last)] = std::numeric_limits<T>::quiet_NaN();
                x[std::min(5 * fixed_order::block + 17, last)] = inf;
                x[std::min(5 * fixed_order::block + 100, last)] = -inf;
            }
            INFO("n = " << n << (non_finite ? ", non-finite blocks" : ""));
            check_clones<P>(detail::resolve_reducer<T>(sum), x.data(), n);
            check_clones<P>(detail::resolve_reducer<T>(sumsq), x.data(), n);
            check_clones<P>(detail::resolve_reducer<zip_value<T, T>>(dot), zip_source<T, T>{x.data(), y.data()}, n);
        }
    }
}

} // namespace

TEMPLATE_TEST_CASE("every SIMD clone of the host fixed-order fold gives the bits of the one-lane reference",
                   "[clones]", float, double) {
    SECTION("deterministic") { check_every_size<precision::deterministic, TestType>(); }
    SECTION("compensated") { check_every_size<precision::compensated, TestType>(); }
}

#if defined(PREDUCE_HOST_AVX2_DISPATCH)
namespace {

// Random 16-bit floats of random sign and fraction. every_exponent: finite values of every
// exponent (subnormals included, the all-ones exponent left out), whose sums the largest
// elements decide; else exponents within 12 of 1's, a spread that the float32 lanes round,
// so that the sum's bits depend on the order of its additions and lanes in another order show.
template <class H>
std::vector<H> random_halves(std::size_t n, std::uint64_t salt, bool every_exponent) {
    const auto raw = test::random_values<std::uint16_t>(n, salt);
    constexpr unsigned shift = std::is_same_v<H, float16> ? 10 : 7;  // the exponent's lowest bit
    constexpr unsigned top = std::is_same_v<H, float16> ? 0x1f : 0xff, bias = top / 2;
    std::vector<H> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        const unsigned b = raw[i], fraction = b & ((1u << shift) - 1), sign = b & 0x8000u;
        unsigned exponent = (b >> shift) & top;
        exponent = every_exponent ? (exponent == top ? top - 1 : exponent) : bias - 12 + exponent % 25;
        v[i] = H{static_cast<std::uint16_t>(sign | exponent << shift | fraction)};
    }
    return v;
}

template <class H, class Op>
void check_half_clones(Op op) {
    const auto r = detail::resolve_reducer<H>(op);
    for (const std::size_t n : {std::size_t{31}, std::size_t{1000}, std::size_t{4096 + 17}, std::size_t{100003}}) {
        for (const bool every_exponent : {true, false}) {
            const auto x = random_halves<H>(n, n, every_exponent);
            for (const std::size_t begin : {std::size_t{0}, std::size_t{3}}) {
                const auto a = host_simd::lane_fold_avx2(r, x.data(), begin, n);
                const auto b = host_simd::lane_fold_avx512(r, x.data(), begin, n);
                INFO("n = " << n << ", begin = " << begin << (every_exponent ? ", every exponent" : ", exponents near 1's")
                            << ": avx2 " << a << ", avx512 " << b);
                CHECK(std::memcmp(&a, &b, sizeof(a)) == 0);
            }
        }
    }
}

} // namespace

TEMPLATE_TEST_CASE("the AVX-512 clone of the 16-bit float folds gives the AVX2 clone's bits", "[clones]", float16,
                   bfloat16) {
    if (!host_simd::cpu_has_avx2() || !host_simd::cpu_has_avx512()) {
        WARN("this CPU lacks AVX2 or AVX-512: the clones are not compared here");
        return;
    }
    SECTION("sum") { check_half_clones<TestType>(sum); }
    SECTION("wide_sum") { check_half_clones<TestType>(wide_sum); }
    SECTION("sumsq") { check_half_clones<TestType>(sumsq); }
    SECTION("asum") { check_half_clones<TestType>(asum); }
}
#endif
