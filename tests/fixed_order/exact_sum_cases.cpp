// When floats sum exactly in double (preduce/detail/fixed_order/exact_sum.hpp): the bound
// that lets the GPU's staged kernel add a compensated float lane's four quarters as sums
// instead of one chain. Checked against the chain itself: where the bound says exact, the
// kernel's grouping (quarter_grouping below, the same adds) gives the chain's bits on random
// data; one exponent past the bound it can round, and there the grouping's bits differ.
#include <catch2/catch.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "preduce/detail/fixed_order/exact_sum.hpp"
#include "support/exact_lanes.hpp"

namespace det = preduce::detail::det;
using preduce_test::edge_lane;

namespace {

using lane_values = std::array<float, 128>;  // a lane's values in the chain's order

double chain(const lane_values& x) {
    double s = -0.0;
    for (float v : x) s += double(v);
    return s;
}

// The staged kernel's grouping: quarter 0 chained, quarters 1-3 each in four chains of every
// fourth value, paired, then added to quarter 0's sum in order.
double quarter_grouping(const lane_values& x) {
    double s = -0.0;
    for (int k = 0; k < 32; ++k) s += double(x[k]);
    for (int w = 1; w < 4; ++w) {
        double p[4];
        for (int c = 0; c < 4; ++c) p[c] = double(x[32 * w + c]);
        for (int u = 4; u < 32; ++u) p[u % 4] += double(x[32 * w + u]);
        s += (p[0] + p[1]) + (p[2] + p[3]);
    }
    return s;
}

det::float_span span_of(const lane_values& x) {
    det::float_span s;
    for (float v : x) det::widen(s, v);
    return s;
}

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

} // namespace

TEST_CASE("exact float sums: exponents 22 apart sum exactly in any grouping, 23 apart can round", "[fixed]") {
    REQUIRE(det::sums_exactly<7>(span_of(edge_lane(22))));
    CHECK(same_bits(quarter_grouping(edge_lane(22)), chain(edge_lane(22))));
    REQUIRE_FALSE(det::sums_exactly<7>(span_of(edge_lane(23))));
    // What the bound guards against: the grouping would not give the chain's bits here.
    CHECK_FALSE(same_bits(quarter_grouping(edge_lane(23)), chain(edge_lane(23))));
}

TEST_CASE("exact float sums: the bound's edges, zeros, subnormals, infinities and NaN", "[fixed]") {
    const auto span = [](std::initializer_list<float> v) {
        det::float_span s;
        for (float x : v) det::widen(s, x);
        return s;
    };
    CHECK(det::sums_exactly<7>(det::float_span{}));  // nothing: the empty sum
    CHECK(det::sums_exactly<7>(span({0.0f, -0.0f})));
    CHECK(det::sums_exactly<7>(span({1.0f, -0.0f, 0x1p-22f})));
    CHECK_FALSE(det::sums_exactly<7>(span({1.0f, 0x1p-23f})));
    CHECK(det::sums_exactly<0>(span({1.0f, 0x1p-29f})));  // a single term: 29 apart
    CHECK_FALSE(det::sums_exactly<0>(span({1.0f, 0x1p-30f})));
    const float tiny = std::numeric_limits<float>::denorm_min();
    const float smallest_normal = std::numeric_limits<float>::min();
    CHECK(det::sums_exactly<7>(span({tiny, -smallest_normal})));  // subnormals: the smallest normal's unit
    CHECK(det::sums_exactly<7>(span({tiny, std::ldexp(smallest_normal, 22)})));
    CHECK_FALSE(det::sums_exactly<7>(span({tiny, std::ldexp(smallest_normal, 23)})));
    CHECK(det::sums_exactly<7>(span({std::numeric_limits<float>::max(), std::ldexp(1.0f, 105)})));
    CHECK_FALSE(det::sums_exactly<7>(span({1.0f, std::numeric_limits<float>::infinity()})));
    CHECK_FALSE(det::sums_exactly<7>(span({-std::numeric_limits<float>::infinity()})));
    CHECK_FALSE(det::sums_exactly<7>(span({1.0f, std::numeric_limits<float>::quiet_NaN()})));
    CHECK(det::joined(span({1.0f}), span({0x1p-22f})).top == det::magnitude_bits(1.0f));
    CHECK_FALSE(det::sums_exactly<7>(det::joined(span({1.0f}), span({-0x1p-23f}))));
}

TEST_CASE("exact float sums: where the bound holds, the staged kernel's grouping gives the chain's bits", "[fixed]") {
    std::mt19937 gen(20261205);
    std::uniform_int_distribution<int> mantissa(-(1 << 24) + 1, (1 << 24) - 1), top(-140, 100);
    int exact = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        // Values of 24-bit mantissas scaled over a range of trial % 24 exponents (so that
        // some trials pass the bound and some do not), some of them zeros of either sign.
        const int e = top(gen);
        std::uniform_int_distribution<int> shift(0, trial % 24);
        lane_values x;
        for (float& v : x) {
            const int m = mantissa(gen);
            v = m % 13 == 0 ? (m < 0 ? -0.0f : 0.0f) : std::ldexp(static_cast<float>(m), e - shift(gen));
        }
        if (!det::sums_exactly<7>(span_of(x))) continue;
        ++exact;
        INFO("trial " << trial);
        REQUIRE(same_bits(quarter_grouping(x), chain(x)));
    }
    CHECK(exact > 5000);
    CHECK(exact < 20000);  // and some did not pass
}
