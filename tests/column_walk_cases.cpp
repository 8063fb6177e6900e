// The two walks of a column sum's band (preduce/host_simd/segmented_folds.hpp): float and
// double sums of large inputs walk blocks of rows a chunk of columns at a time
// (fold/column_sums.hpp), every other fold walks eight rows across the band. Both must give
// each column the same additions in the same order, so fold_band must give the row walk's
// bits on any band, row range and row pitch; and both must agree with a plain
// double-precision column loop within the sum's error bound.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "preduce/host_simd/segmented_folds.hpp"
#include "preduce/reducers.hpp"

namespace {

namespace seg = preduce::host_simd::segmented;

template <class T>
void check_band(const std::vector<T>& x, const preduce::detail::segment_layout& L, const seg::strided_task& k,
                bool avx2) {
    CAPTURE(k.o, k.c0, k.c1, k.j0, k.j1, avx2);
    const preduce::sum_reducer<T> r{};
    const std::uint64_t w = k.c1 - k.c0;
    std::vector<T> rows(w, T(0)), blocks(w, T(0));
    seg::fold_band_rows(r, x.data(), L, k, k.j0, k.j1, 0, w, rows.data());
    if (avx2) seg::fold_band<true>(r, x.data(), L, k, blocks.data());
    else seg::fold_band<false>(r, x.data(), L, k, blocks.data());
    for (std::uint64_t c = 0; c < w; ++c) {
        CAPTURE(c);
        REQUIRE(std::memcmp(&rows[c], &blocks[c], sizeof(T)) == 0);
        double exact = 0, magnitude = 0;
        for (std::uint64_t j = k.j0; j < k.j1; ++j) {
            const double v = x[(k.o * L.size + j) * L.inner + k.c0 + c];
            exact += v;
            magnitude += std::fabs(v);
        }
        REQUIRE(std::fabs(static_cast<double>(blocks[c]) - exact) <=
                static_cast<double>(k.j1 - k.j0) * std::numeric_limits<T>::epsilon() * magnitude);
    }
}

} // namespace

TEMPLATE_TEST_CASE("column sums: the block walk gives the row walk's bits on every band", "[segments][axes]", float,
                   double) {
    using T = TestType;
    // Two outer indices of 4133 rows of 1100 columns: over column_blocks_bytes for floats
    // and doubles alike, so fold_band takes the block walk wherever a task has a whole block.
    const std::uint64_t outer = 2, rows = 4133, columns = 1100;
    preduce::detail::segment_layout L;
    L.form = preduce::detail::segment_form::strided;
    L.inner = columns;
    L.size = rows;
    L.count = outer * columns;
    REQUIRE(L.count * L.size * sizeof(T) >= seg::tuning::column_blocks_bytes);
    std::vector<T> x(outer * rows * columns);
    std::mt19937_64 gen(20261208);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (auto& v : x) v = static_cast<T>(u(gen) * std::ldexp(1.0, static_cast<int>(gen() % 16) - 8));
    const seg::strided_task tasks[] = {
        {0, 0, columns, 0, rows, 0},      // the whole of outer 0: blocks, then 5 rows past them
        {1, 0, 64, 31, 95, 0},            // one chunk of floats exactly, a row range off the blocks' grid
        {1, 3, 3 + 64 + 13, 7, 7 + 64, 0},  // a chunk and a ragged edge, whole blocks only
        {1, 100, 100 + 200, 0, 31, 0},    // fewer rows than a block: the row walk alone
        {0, 1000, columns, 900, 1300, 0},  // a band narrower than a chunk of floats (100 columns)
        {1, 17, 17 + 40, 2000, 4133, 0},   // narrower than a chunk of doubles too: the row walk alone
    };
    for (const auto& k : tasks) {
        check_band(x, L, k, false);
#if defined(PREDUCE_HOST_AVX2_DISPATCH)
        if (preduce::host_simd::use_avx2()) check_band(x, L, k, true);
#endif
    }
}
