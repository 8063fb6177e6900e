// Many results per call on the backend under test, part of the shared body: every segment
// must be what reducing it alone gives (the single-array path of seq, and the oracles), for
// segments by offsets, fixed-size batches, axis reductions and runs of equal keys; with
// segment sizes around every lane, block, task and chunk boundary, skewed random mixes,
// empty segments, every op, every precision, and bad input refused before any work.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "oracle/compare.hpp"
#include "preduce/preduce.hpp"
#include "support/checks.hpp"
#include "support/data.hpp"
#include "support/under_test.hpp"

using namespace preduce;
using namespace preduce::test;
// preduce::min and preduce::max are written out: see backend_cases.cpp.

namespace {

// Segment sizes around the boundaries of every backend: warp (32), fixed-order block (4096),
// host task (16384), the GPU's single-block limit (32768) and big-segment limit (65536).
const std::vector<std::uint64_t> edge_sizes = {0,     1,     2,     31,    32,    33,    4095,  4096,  4097,
                                               16383, 16384, 16385, 32767, 32768, 32769, 65535, 65536, 65537};

std::vector<std::uint64_t> offsets_of(const std::vector<std::uint64_t>& sizes) {
    std::vector<std::uint64_t> o{0};
    for (std::uint64_t s : sizes) o.push_back(o.back() + s);
    return o;
}

// Sizes drawn log-uniformly from [1, hi], or from a power law (many tiny, a few huge), and a
// run of empty segments in between, until `total` elements are covered.
std::vector<std::uint64_t> random_sizes(std::mt19937_64& rng, std::uint64_t total, std::uint64_t hi, bool power_law) {
    std::vector<std::uint64_t> sizes;
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::uint64_t covered = 0;
    while (covered < total) {
        std::uint64_t s;
        if (power_law) s = static_cast<std::uint64_t>(std::pow(1.0 - u(rng), -1.0 / 0.7));  // Pareto, alpha 0.7
        else s = static_cast<std::uint64_t>(std::exp(u(rng) * std::log(static_cast<double>(hi))));
        s = std::clamp<std::uint64_t>(s, 1, std::min(hi, total - covered));
        if (u(rng) < 0.05)
            for (int k = 0; k < 5; ++k) sizes.push_back(0);
        sizes.push_back(s);
        covered += s;
    }
    return sizes;
}

// The backend under test over segments by offsets, data/offsets/output where the test
// executable keeps them (host, or GPU memory for the CUDA residency variants).
template <class T, class Op>
auto segments_under_test(std::span<const T> x, const std::vector<std::uint64_t>& offsets, const Op& op,
                         const options& opts = {}) {
    using Out = result_of_t<T, Op>;
    const std::size_t m = offsets.size() - 1;
    const auto* data = static_cast<const T*>(x.empty() ? nullptr : stage(x.data(), x.size_bytes(), 0));
    const auto* offs = static_cast<const std::uint64_t*>(stage(offsets.data(), offsets.size() * sizeof(std::uint64_t), 2));
    std::vector<Out> out(m);
    if constexpr (requires { typename Op::reshapes_result; }) {  // reshaped on the host: a host output
        reduce_segments(under_test(), data, x.size(), offs, m, op, out.data(), opts);
    } else {
        auto* staged = static_cast<Out*>(stage_output(m * sizeof(Out)));
        reduce_segments(under_test(), data, x.size(), offs, m, op, staged, opts);
        fetch(out.data(), staged, m * sizeof(Out));
    }
    return out;
}

// Every result against reducing its segment alone on seq, and float sums against the exact
// sum too: exact operations equal, fixed-order sums the same bits, fast float sums within
// the bound of the backend's order.
template <class T, class Op>
void check_segments(std::span<const T> x, const std::vector<std::uint64_t>& offsets, const Op& op, const char* what,
                    const options& opts = {}) {
    const auto got = segments_under_test(x, offsets, op, opts);
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
        const std::span<const T> seg = x.subspan(offsets[s], offsets[s + 1] - offsets[s]);
        const auto want = reduce(backend::seq, seg, op, opts);
        INFO(what << ", segment " << s << " of " << offsets.size() - 1 << ", length " << seg.size() << ", "
                  << name(opts.precision) << ", " << residency() << ", seed " << seed());
        // A fast float sum's rounding depends on the backend's order: within the bound.
        if constexpr (std::is_floating_point_v<T> && std::is_same_v<Op, std::remove_cvref_t<decltype(sum)>>) {
            if (opts.precision == precision::fast) {
                check_float_sum<T>(got[s], seg, std::numeric_limits<T>::epsilon() / 2, "segment sum");
                continue;
            }
        }
        CHECK(same(got[s], want));
    }
}

template <class T>
void check_every_op_on_segments(std::span<const T> x, const std::vector<std::uint64_t>& offsets) {
    check_segments(x, offsets, sum, "sum");
    check_segments(x, offsets, preduce::min, "min");
    check_segments(x, offsets, preduce::max, "max");
    check_segments(x, offsets, argmin, "argmin");
    check_segments(x, offsets, argmax, "argmax");
    check_segments(x, offsets, minmax, "minmax");
    check_segments(x, offsets, count_if(greater(T(0))), "count_if");
    if constexpr (std::is_integral_v<T>) {
        check_segments(x, offsets, wide_sum, "wide_sum");
        check_segments(x, offsets, sumsq, "sumsq");
        check_segments(x, offsets, prod, "prod");
    } else {
        for (precision p : {precision::deterministic, precision::compensated}) {
            const options o{.precision = p};
            check_segments(x, offsets, sum, "sum", o);
            check_segments(x, offsets, wide_sum, "wide_sum", o);
            check_segments(x, offsets, sumsq, "sumsq", o);
            check_segments(x, offsets, asum, "asum", o);
        }
    }
}

} // namespace

TEMPLATE_TEST_CASE("segments by offsets: sizes around every boundary, each as if reduced alone", "[segments]",
                   std::int32_t, std::uint64_t, float, double) {
    using T = TestType;
    std::vector<std::uint64_t> sizes = edge_sizes;
    std::reverse(sizes.begin(), sizes.end());
    sizes.insert(sizes.end(), edge_sizes.begin(), edge_sizes.end());
    for (int k = 0; k < 40; ++k) sizes.push_back(0);  // many empty segments in a row, at the end
    const auto offsets = offsets_of(sizes);
    const auto x = random_values<T>(offsets.back() + 5, 101);  // 5 trailing elements belong to no segment
    check_every_op_on_segments<T>(x, offsets);
}

// The narrow element types: exact ops, and the 16-bit floats' fixed-order sums (a fast float
// sum's rounding is the backend's own; the narrow body bounds it).
TEMPLATE_TEST_CASE("segments of narrow element types: sizes around every boundary, each as if reduced alone",
                   "[segments][narrow]", std::int8_t, std::uint16_t, preduce::float16, preduce::bfloat16) {
    using T = TestType;
    std::vector<std::uint64_t> sizes = edge_sizes;
    for (int k = 0; k < 10; ++k) sizes.push_back(0);
    const auto offsets = offsets_of(sizes);
    std::mt19937_64 rng(seed() ^ 0x6e6172726f77ull);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    std::vector<T> x(offsets.back() + 5);
    for (auto& v : x) {
        if constexpr (detail::is_half_v<T>)
            v = detail::round_from_float<T>(std::ldexp(unit(rng), static_cast<int>(rng() % 21) - 10));
        else v = static_cast<T>(rng());
    }
    const std::span<const T> xs(x);
    check_segments(xs, offsets, preduce::min, "min");
    check_segments(xs, offsets, preduce::max, "max");
    check_segments(xs, offsets, argmin, "argmin");
    check_segments(xs, offsets, argmax, "argmax");
    check_segments(xs, offsets, minmax, "minmax");
    check_segments(xs, offsets, count_if(greater(x[7])), "count_if");
    if constexpr (detail::is_half_v<T>) {
        for (precision p : {precision::deterministic, precision::compensated}) {
            const options o{.precision = p};
            check_segments(xs, offsets, sum, "sum", o);
            check_segments(xs, offsets, sumsq, "sumsq", o);
            check_segments(xs, offsets, asum, "asum", o);
        }
    } else {
        check_segments(xs, offsets, sum, "sum");
        check_segments(xs, offsets, wide_sum, "wide_sum");
        check_segments(xs, offsets, sumsq, "sumsq");
        check_segments(xs, offsets, prod, "prod");
    }
}

TEMPLATE_TEST_CASE("segments by offsets: log-uniform and power-law size mixes", "[segments]", float, std::int64_t) {
    using T = TestType;
    std::mt19937_64 rng(seed() ^ 0x5e6);
    for (bool power_law : {false, true}) {
        const auto offsets = offsets_of(random_sizes(rng, std::uint64_t{1} << 21, std::uint64_t{1} << 20, power_law));
        const auto x = random_values<T>(offsets.back(), 102 + power_law);
        check_segments<T>(x, offsets, sum, "sum");
        check_segments<T>(x, offsets, argmax, "argmax");
        if constexpr (std::is_floating_point_v<T>)
            check_segments<T>(x, offsets, sum, "sum", {.precision = precision::deterministic});
    }
}

TEST_CASE("segments: one huge segment, NaN and ties inside segments, two inputs, transforms", "[segments]") {
    auto x = random_values<float>((std::size_t{1} << 20) + 3, 103);
    check_segments<float>(x, {0, x.size()}, sum, "sum");
    check_segments<float>(x, {0, x.size()}, argmin, "argmin");
    // NaN in the middle segment only; ties spanning a segment boundary.
    x[5000] = std::numeric_limits<float>::quiet_NaN();
    for (std::size_t i = 9990; i < 10010; ++i) x[i] = -1e30f;  // below every random value
    const std::vector<std::uint64_t> offsets{0, 4000, 9000, 10000, 12000, x.size()};
    for (const char* what : {"argmin", "argmax", "min", "max"}) {
        const std::string w(what);
        if (w == "argmin") check_segments<float>(x, offsets, argmin, what);
        if (w == "argmax") check_segments<float>(x, offsets, argmax, what);
        if (w == "min") check_segments<float>(x, offsets, preduce::min, what);
        if (w == "max") check_segments<float>(x, offsets, preduce::max, what);
    }
    // The index of a segment's argmin counts from the segment's start.
    const auto am = segments_under_test<float>(x, offsets, argmin);
    CHECK(am[1].index == 1000);  // the NaN at 5000 is element 1000 of segment 1
    CHECK(am[3].index == 0);     // the tie at 9990..10009: segment 3 starts at 10000
    // moments, mean and variance per segment, and dot over two inputs.
    const auto mo = segments_under_test<float>(x, {0, 4000, 4000, 9000}, moments);
    CHECK(mo[1].count == 0);
    CHECK(std::isnan(mo[1].mean));
    const auto means = segments_under_test<float>(x, {0, 4000, 4000}, mean);
    CHECK(std::fabs(means[0] - reduce(backend::seq, std::span<const float>(x.data(), 4000), mean)) <= 1e-6);
    CHECK(std::isnan(means[1]));
    const auto y = random_values<float>(x.size(), 104);
    const std::vector<std::uint64_t> o2{0, 1, 4097, 70000, x.size()};
    std::vector<float> got(o2.size() - 1);
    const auto* px = static_cast<const float*>(stage(x.data(), x.size() * sizeof(float), 0));
    const auto* py = static_cast<const float*>(stage(y.data(), y.size() * sizeof(float), 1));
    const auto* po = static_cast<const std::uint64_t*>(stage(o2.data(), o2.size() * sizeof(std::uint64_t), 2));
    for (precision p : {precision::fast, precision::deterministic}) {
        reduce_segments(under_test(), px, py, x.size(), po, o2.size() - 1, dot, got.data(), {.precision = p});
        for (std::size_t s = 0; s + 1 < o2.size(); ++s) {
            const std::size_t b = o2[s], len = o2[s + 1] - o2[s];
            const float want = reduce(backend::seq, x.data() + b, y.data() + b, len, dot, {.precision = p});
            INFO("dot segment " << s << ", " << name(p));
            if (p == precision::fast && !std::isnan(want)) {
                // Any order of additions: within len roundings of the sum of |x y|.
                double scale = 0.0;
                for (std::size_t i = b; i < b + len; ++i) scale += std::fabs(static_cast<double>(x[i]) * y[i]);
                CHECK(std::fabs(static_cast<double>(got[s]) - want) <= static_cast<double>(len) * 0x1p-23 * scale);
            } else {
                CHECK(same(got[s], want));
            }
        }
    }
}

TEMPLATE_TEST_CASE("fixed-size batches: every size, each batch as if reduced alone", "[segments][batches]",
                   std::int32_t, float, double) {
    using T = TestType;
    // 4 .. 64: the lengths that the host backends fold several batches at a time across the
    // SIMD lanes (a count that leaves a remainder of batches for the one-at-a-time fold).
    for (std::size_t k : {std::size_t{1}, std::size_t{3}, std::size_t{4}, std::size_t{8}, std::size_t{16}, std::size_t{32},
                          std::size_t{33}, std::size_t{64}, std::size_t{4096}, std::size_t{4097}, std::size_t{65537}}) {
        // About 2^18 elements in all (2^16 under the sanitizers: each batch is checked against seq).
        const std::size_t m = std::max<std::size_t>(1, (std::size_t{1} << (instrumented ? 16 : 18)) / k) - (k <= 64 ? 3 : 0);
        const auto x = random_values<T>(m * k, 105 + k);
        std::vector<std::uint64_t> offsets(m + 1);
        for (std::size_t s = 0; s <= m; ++s) offsets[s] = s * k;
        const auto* data = static_cast<const T*>(stage(x.data(), x.size() * sizeof(T), 0));
        for (precision p : {precision::fast, precision::deterministic}) {
            if (std::is_integral_v<T> && p != precision::fast) continue;
            const options o{.precision = p};
            const auto sums = reduce_batches(under_test(), std::span<const T>(data, x.size()), k, sum, o);
            const auto mins = reduce_batches(under_test(), std::span<const T>(data, x.size()), k, argmin, o);
            REQUIRE(sums.size() == m);
            for (std::size_t s = 0; s < m; ++s) {
                const std::span<const T> seg(x.data() + s * k, k);
                INFO("k " << k << ", batch " << s << ", " << name(p) << ", " << residency());
                CHECK(same(mins[s], reduce(backend::seq, seg, argmin)));
                if (std::is_floating_point_v<T> && p == precision::fast)
                    check_float_sum<T>(sums[s], seg, std::numeric_limits<T>::epsilon() / 2, "batch sum");
                else
                    CHECK(same(sums[s], reduce(backend::seq, seg, sum, o)));
            }
        }
    }
}

namespace {

// The plain-loop meaning of an axis reduction: for every kept index (C order), the elements
// with that index, in C order of the reduced axes, reduced alone on seq.
template <class T, class Op>
std::vector<result_of_t<T, Op>> axes_oracle(const std::vector<T>& x, const std::vector<std::size_t>& shape,
                                            const std::vector<int>& axes, const Op& op, const options& opts) {
    const std::size_t rank = shape.size();
    std::vector<bool> red(rank, false);
    for (int a : axes) red[static_cast<std::size_t>(a < 0 ? a + static_cast<int>(rank) : a)] = true;
    std::vector<std::size_t> stride(rank, 1);
    for (std::size_t d = rank; d-- > 1;) stride[d - 1] = stride[d] * shape[d];
    std::vector<std::size_t> kept, reduced;
    for (std::size_t d = 0; d < rank; ++d) (red[d] ? reduced : kept).push_back(d);
    const auto count = [&](const std::vector<std::size_t>& dims) {
        std::size_t c = 1;
        for (std::size_t d : dims) c *= shape[d];
        return c;
    };
    std::vector<result_of_t<T, Op>> out;
    for (std::size_t k = 0; k < count(kept); ++k) {
        std::size_t base = 0, rem = k;
        for (std::size_t i = kept.size(); i-- > 0;) {
            base += rem % shape[kept[i]] * stride[kept[i]];
            rem /= shape[kept[i]];
        }
        std::vector<T> seg;
        for (std::size_t j = 0; j < count(reduced); ++j) {
            std::size_t at = base, r = j;
            for (std::size_t i = reduced.size(); i-- > 0;) {
                at += r % shape[reduced[i]] * stride[reduced[i]];
                r /= shape[reduced[i]];
            }
            seg.push_back(x[at]);
        }
        out.push_back(reduce(backend::seq, seg, op, opts));
    }
    return out;
}

template <class T>
void check_axes(const std::vector<std::size_t>& shape, const std::vector<int>& axes) {
    std::size_t n = 1;
    for (std::size_t e : shape) n *= e;
    const auto x = random_values<T>(n, 106 + n);
    const auto* data = static_cast<const T*>(n == 0 ? nullptr : stage(x.data(), n * sizeof(T), 0));
    std::string label = "shape [";
    for (std::size_t e : shape) label += std::to_string(e) + " ";
    label += "] axes (";
    for (int a : axes) label += std::to_string(a) + " ";
    label += ")";
    INFO(label << ", " << residency());
    // Two or more separate groups of reduced axes need a host copy: device data is refused.
    std::vector<bool> red(shape.size(), false);
    for (int a : axes) red[static_cast<std::size_t>(a < 0 ? a + static_cast<int>(shape.size()) : a)] = true;
    int groups = 0;
    bool in_group = false;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (shape[d] == 1) continue;
        if (red[d] && !in_group) ++groups;
        in_group = red[d];
    }
    if (groups >= 2 && residency() == "device" && n != 0) {
        CHECK_THROWS_AS(reduce_axes(under_test(), data, shape, axes, sum), preduce::invalid_argument);
        return;
    }
    for (precision p : {precision::fast, precision::deterministic}) {
        if (std::is_integral_v<T> && p != precision::fast) continue;
        const options o{.precision = p};
        const auto got_max = reduce_axes(under_test(), data, shape, axes, argmax, o);
        const auto want_max = axes_oracle(x, shape, axes, argmax, o);
        REQUIRE(got_max.size() == want_max.size());
        for (std::size_t i = 0; i < got_max.size(); ++i) CHECK(same(got_max[i], want_max[i]));
        const auto got = reduce_axes(under_test(), data, shape, axes, sum, o);
        const auto want = axes_oracle(x, shape, axes, sum, o);
        // The fast order may add in any order: within (elements - 1) roundings of the sum of |x|.
        const auto scale = axes_oracle(x, shape, axes, asum, options{});
        const std::size_t reduced = n == 0 || got.empty() ? 0 : n / got.size();
        for (std::size_t i = 0; i < got.size(); ++i) {
            INFO("result " << i << ", " << name(p));
            if (std::is_floating_point_v<T> && p == precision::fast)
                CHECK(std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i])) <=
                      static_cast<double>(reduced) * 0x1p-23 * static_cast<double>(scale[i]));
            else
                CHECK(same(got[i], want[i]));
        }
    }
}

} // namespace

TEMPLATE_TEST_CASE("axis reductions on 1-D to 4-D shapes, every axis and axis tuples", "[segments][axes]", float,
                   std::int32_t) {
    using T = TestType;
    check_axes<T>({1000}, {0});
    check_axes<T>({1000}, {});
    check_axes<T>({37, 300}, {0});  // column sums
    check_axes<T>({37, 300}, {1});  // row sums
    check_axes<T>({37, 300}, {0, 1});
    check_axes<T>({37, 300}, {-1});
    check_axes<T>({5000, 3}, {0});  // few long columns
    check_axes<T>({6, 7, 8}, {0});
    check_axes<T>({6, 7, 8}, {1});  // [K, R, K]
    check_axes<T>({6, 7, 8}, {2});
    check_axes<T>({6, 7, 8}, {0, 2});  // two groups: gathered
    check_axes<T>({6, 7, 8}, {1, 2});
    check_axes<T>({6, 7, 8}, {0, 1});
    check_axes<T>({6, 1, 8}, {1});     // extent-1 axis
    check_axes<T>({3, 4, 5, 6}, {1, 3});
    check_axes<T>({3, 4, 5, 6}, {0, 3});
    check_axes<T>({2, 4500, 3}, {1});  // a reduced axis longer than a fixed-order block
    check_axes<T>({4, 0, 5}, {1});     // empty reduced axis: identities
    check_axes<T>({4, 0, 5}, {0});     // empty kept axis: no results
}

TEST_CASE("reduce_by_key: runs of length 1 and long runs, as thrust::reduce_by_key", "[segments][by_key]") {
    std::mt19937_64 rng(seed() ^ 0xb7);
    for (std::size_t mean_run : {std::size_t{1}, std::size_t{16}, std::size_t{5000}}) {
        std::vector<std::int32_t> keys;
        std::int32_t k = 0;
        while (keys.size() < 300000) {
            const std::size_t run = mean_run == 1 ? 1 : 1 + rng() % (2 * mean_run);
            for (std::size_t i = 0; i < run && keys.size() < 300000; ++i) keys.push_back(k);
            k += 1 + static_cast<std::int32_t>(rng() % 3) * (rng() % 2 ? 1 : -1);  // neighbours differ; a key may repeat later
        }
        const auto v = random_values<float>(keys.size(), 107 + mean_run);
        const auto* data = static_cast<const float*>(stage(v.data(), v.size() * sizeof(float), 0));
        const auto got = reduce_by_key(under_test(), keys, std::span<const float>(data, v.size()), argmax);
        // The runs, found by hand.
        std::vector<std::size_t> starts{0};
        for (std::size_t i = 1; i < keys.size(); ++i)
            if (keys[i] != keys[i - 1]) starts.push_back(i);
        starts.push_back(keys.size());
        REQUIRE(got.keys.size() == starts.size() - 1);
        REQUIRE(got.values.size() == got.keys.size());
        for (std::size_t r = 0; r + 1 < starts.size(); ++r) {
            INFO("mean run " << mean_run << ", run " << r);
            CHECK(got.keys[r] == keys[starts[r]]);
            CHECK(same(got.values[r], reduce(backend::seq, v.data() + starts[r], starts[r + 1] - starts[r], argmax)));
        }
    }
    // NaN keys: every NaN is a run of its own; -0.0 and +0.0 are one run.
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> fk{1.0f, nan, nan, -0.0f, 0.0f, 2.0f};
    const std::vector<std::int32_t> fv{1, 2, 3, 4, 5, 6};
    const auto r = reduce_by_key(under_test(), fk, fv, sum);
    REQUIRE(r.values.size() == 5);
    CHECK(r.values == std::vector<std::int32_t>{1, 2, 3, 9, 6});
}

TEST_CASE("segmented calls refuse bad input before any work", "[segments][errors]") {
    const auto x = random_values<float>(1000, 108);
    std::vector<float> out(4, 42.0f);
    const auto bad = [&](std::vector<std::uint64_t> offsets, const char* needle) {
        INFO("offsets case: " << needle);
        const std::size_t m = offsets.size() - 1;
        CHECK_THROWS_WITH(reduce_segments(under_test(), x.data(), x.size(), offsets.data(), m, sum, out.data()),
                          Catch::Contains(needle));
    };
    bad({0, 500, 400, 1000}, "decrease");
    bad({0, 500, 1001}, "past the end");
    CHECK(out == std::vector<float>(4, 42.0f));  // nothing written
    const std::vector<std::uint64_t> ok{0, 10, 20, 30};
    std::vector<float> short_out(2);
    CHECK_THROWS_AS(reduce_segments(under_test(), x, ok, sum, short_out), preduce::invalid_argument);
    CHECK_THROWS_AS(reduce_segments(under_test(), x, std::vector<std::uint64_t>{}, sum), preduce::invalid_argument);
    CHECK_THROWS_AS(reduce_batches(under_test(), x, 3, sum), preduce::invalid_argument);  // 1000 % 3 != 0
    CHECK_THROWS_AS(reduce_batches(under_test(), x, 0, sum), preduce::invalid_argument);
    const std::vector<std::size_t> shape{10, 100};
    CHECK_THROWS_AS(reduce_axes(under_test(), x.data(), shape, std::vector<int>{2}, sum), preduce::invalid_argument);
    CHECK_THROWS_AS(reduce_axes(under_test(), x.data(), shape, std::vector<int>{-3}, sum), preduce::invalid_argument);
    CHECK_THROWS_AS(reduce_axes(under_test(), x.data(), shape, std::vector<int>{1, 1}, sum), preduce::invalid_argument);
    const std::vector<std::int32_t> keys(999, 1);
    CHECK_THROWS_AS(reduce_by_key(under_test(), keys, x, sum), preduce::invalid_argument);
    CHECK_THROWS_AS(reduce_segments(under_test(), x.data(), x.size(), ok.data(), 3, sum, out.data(), {.threads = -1}),
                    preduce::invalid_argument);
    CHECK_THROWS_AS(reduce_segments(under_test(), x.data(), x.size(), ok.data(), 3, prod, out.data(),
                                    {.precision = precision::deterministic}),
                    preduce::invalid_argument);
}
