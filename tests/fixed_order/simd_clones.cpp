// The host SIMD folds of the fixed order (preduce/host_simd/fixed_order_blocks.hpp) are
// compiled several times (the baseline, an AVX2 clone and, for the compensated sums, an
// AVX-512 clone) and chosen at run time by what the CPU has, so one machine runs only one
// of them in the backends. Here every clone this CPU can run is called directly, on every
// block of fresh random data, and must give the bits of det::block_value, the one-lane
// reference every backend's fixed order must equal.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "preduce/host_simd/fixed_order_blocks.hpp"
#include "preduce/preduce.hpp"
#include "support/data.hpp"

using namespace preduce;
namespace det = preduce::detail::det;

namespace {

template <class V>
bool same_bits(const V& a, const V& b) {
    return std::memcmp(&a, &b, sizeof(V)) == 0;
}

// Every block of src[0, n) by each clone this CPU runs, against the reference block by block.
template <precision P, class R>
void check_clones(const R& r, source_t<R> src, std::size_t n) {
    using V = det::value_t<P, typename R::accumulator_type>;
    const std::size_t blocks = det::block_count(n);
    std::vector<V> want(blocks);
    for (std::size_t b = 0; b < blocks; ++b) want[b] = det::block_value<P>(r, src, n, b);

    const auto check = [&](const std::string& clone, auto&& fold) {
        std::vector<V> got(blocks);
        fold(got.data());
        std::size_t differ = 0;
        for (std::size_t b = 0; b < blocks; ++b) differ += same_bits(got[b], want[b]) ? 0 : 1;
        INFO(clone << ": " << differ << " of " << blocks << " blocks differ from det::block_value");
        CHECK(differ == 0);
    };
    check("baseline", [&](V* out) { det::block_values<P>(r, src, n, 0, blocks, out); });
#if defined(PREDUCE_HOST_AVX2_DISPATCH)
    if (detail::cpu_has_avx2()) {
        check("avx2", [&](V* out) { det::block_values_avx2<P>(r, src, n, 0, blocks, out); });
        if constexpr (P == precision::compensated) {
            if (detail::cpu_has_avx512())
                check("avx512", [&](V* out) { det::block_values_avx512<P>(r, src, n, 0, blocks, out); });
            else
                WARN("this CPU has no AVX-512: the AVX-512 clone is not checked here");
        }
    }
#else
    WARN("built for AVX2 or better: no run-time clones to compare");
#endif
}

// Sizes: one short block, whole blocks, and whole blocks plus a short last one.
template <precision P, class T>
void check_every_size() {
    for (const std::size_t n : {std::size_t{1000}, 8 * det::block, 37 * det::block + 777}) {
        const auto x = test::random_values<T>(n, n);
        const auto y = test::random_values<T>(n, n + 1);
        INFO("n = " << n);
        check_clones<P>(detail::resolve_reducer<T>(sum), x.data(), n);
        check_clones<P>(detail::resolve_reducer<T>(sumsq), x.data(), n);
        check_clones<P>(detail::resolve_reducer<zip_value<T, T>>(dot), zip_source<T, T>{x.data(), y.data()}, n);
    }
}

} // namespace

TEMPLATE_TEST_CASE("every SIMD clone of the host fixed-order fold gives the bits of the one-lane reference",
                   "[clones]", float, double) {
    SECTION("deterministic") { check_every_size<precision::deterministic, TestType>(); }
    SECTION("compensated") { check_every_size<precision::compensated, TestType>(); }
}
