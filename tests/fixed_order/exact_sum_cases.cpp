// When a compensated float lane's double sum is exact (preduce/detail/fixed_order/exact_sum.hpp):
// where sums_exactly passes, the GPU's staged kernel adds a lane's 128 floats in thirteen
// chains (the first quarter in one, the others in four each, their sums then added) and must
// get the bits of the fixed order's one chain. Checked here against that chain and an exact sum (long double,
// 64 significant bits: the exact sums of these sets need at most 54), on sets at the
// bound's edge and on random ones.
#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "preduce/detail/fixed_order/exact_sum.hpp"

namespace det = preduce::detail::det;

namespace {

static_assert(LDBL_MANT_DIG >= 64, "the exact sums below need an x87 long double");

// The fixed order's lane: one chain of double adds from the identity -0.0.
double chain(const std::vector<float>& x) {
    double s = -0.0;
    for (float v : x) s += static_cast<double>(v);
    return s;
}

// The staged kernel's grouping of a lane's 128 values: the first 32 in one chain from -0.0
// (warp 0's own rows), the other quarters of 32 each in four chains (row u into chain u % 4,
// each from -0.0) with the quarter's sum (c0 + c1) + (c2 + c3), and those sums added to the
// first chain in order.
double quarters(const std::vector<float>& x) {
    double total = -0.0;
    for (std::size_t u = 0; u < 32; ++u) total += static_cast<double>(x[u]);
    for (std::size_t q = 1; q < 4; ++q) {
        double c[4] = {-0.0, -0.0, -0.0, -0.0};
        for (std::size_t u = 0; u < 32; ++u) c[u % 4] += static_cast<double>(x[32 * q + u]);
        total += (c[0] + c[1]) + (c[2] + c[3]);
    }
    return total;
}

long double exact(const std::vector<float>& x) {
    long double s = 0;
    for (float v : x) s += static_cast<long double>(v);
    return s;
}

det::float_span span_of(const std::vector<float>& x) {
    det::float_span s{};
    for (float v : x) det::widen(s, v);
    return s;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof(a)) == 0; }

// 120 floats of the largest mantissa at exponent 0 and 8 of value 2^-d (1 + 2^-23), whose
// lowest bit is 2^-(d + 23): the exponents are d apart, and the sum needs 31 + d bits.
std::vector<float> edge_set(int d) {
    std::vector<float> x(128, std::nextafter(2.0f, 0.0f));
    for (std::size_t k = 120; k < 128; ++k) x[k] = std::ldexp(1.0f + 0x1p-23f, -d);
    return x;
}

} // namespace

TEST_CASE("exact_sum: the bound's edge: exponents 22 apart sum exactly in 128 terms, 23 apart need not",
          "[fixed_order]") {
    const std::vector<float> at = edge_set(22), past = edge_set(23);
    CHECK(det::sums_exactly<7>(span_of(at)));
    CHECK(static_cast<long double>(chain(at)) == exact(at));
    CHECK(same_bits(quarters(at), chain(at)));
    // One more apart: the set is refused, and rightly: the chain rounds, and the kernel's
    // grouping rounds differently, so taking it there would change the bits.
    CHECK_FALSE(det::sums_exactly<7>(span_of(past)));
    CHECK(static_cast<long double>(chain(past)) != exact(past));
    CHECK_FALSE(same_bits(quarters(past), chain(past)));
    // Fewer terms allow a wider span: 2^6 of them, 23 apart.
    CHECK(det::sums_exactly<6>(span_of(std::vector<float>(past.begin() + 64, past.end()))));
}

TEST_CASE("exact_sum: zeros, subnormals, infinities and NaNs", "[fixed_order]") {
    CHECK(det::sums_exactly<7>(span_of(std::vector<float>(128, 0.0f))));
    CHECK(det::sums_exactly<7>(span_of(std::vector<float>(128, -0.0f))));
    CHECK(same_bits(quarters(std::vector<float>(128, -0.0f)), -0.0));  // -0.0 only where every term is
    std::vector<float> signs(128, -0.0f);
    signs[77] = 0.0f;
    CHECK(same_bits(quarters(signs), chain(signs)));
    CHECK(same_bits(chain(signs), 0.0));
    // Zeros do not widen the span.
    std::vector<float> zeros(128, 0.0f);
    zeros[3] = 1.0f;
    zeros[100] = -0x1p-22f;
    CHECK(det::sums_exactly<7>(span_of(zeros)));
    // Subnormals count as exponent 1: the smallest one with normals up to 2^-104.
    std::vector<float> tiny(128, FLT_TRUE_MIN);
    tiny[0] = 0x1p-104f;
    CHECK(det::sums_exactly<7>(span_of(tiny)));
    tiny[0] = 0x1p-103f;
    CHECK_FALSE(det::sums_exactly<7>(span_of(tiny)));
    for (float special : {INFINITY, -INFINITY, NAN}) {
        std::vector<float> x(128, 1.0f);
        x[5] = special;
        CHECK_FALSE(det::sums_exactly<7>(span_of(x)));
    }
    det::float_span a{}, b{};
    det::widen(a, 4.0f);
    det::widen(b, -0.25f);
    const det::float_span both = det::joined(a, b);
    CHECK(both.top == a.top);
    CHECK(both.low == b.low);
}

TEST_CASE("exact_sum: random sets that pass sum exactly in any grouping", "[fixed_order]") {
    std::mt19937_64 rng(20261205);
    std::uniform_int_distribution<int> spread(0, 30), exponent(-60, 60), coin(0, 9);
    std::uniform_real_distribution<float> mantissa(1.0f, 2.0f);
    int passed = 0, refused = 0;
    for (int trial = 0; trial < 4000; ++trial) {
        const int top = exponent(rng), d = spread(rng);
        std::uniform_int_distribution<int> within(top - d, top);
        std::vector<float> x(128);
        for (float& v : x) {
            const int c = coin(rng);
            v = c == 0 ? 0.0f : std::ldexp(mantissa(rng), within(rng)) * (c % 2 ? -1.0f : 1.0f);
        }
        if (!det::sums_exactly<7>(span_of(x))) {
            ++refused;
            continue;
        }
        ++passed;
        INFO("trial " << trial << ", exponents " << d << " apart");
        REQUIRE(static_cast<long double>(chain(x)) == exact(x));
        REQUIRE(same_bits(quarters(x), chain(x)));
        std::vector<float> reversed(x.rbegin(), x.rend());
        REQUIRE(same_bits(chain(reversed), chain(x)));
    }
    CHECK(passed > 1000);  // both sides of the bound are drawn
    CHECK(refused > 1000);
}
