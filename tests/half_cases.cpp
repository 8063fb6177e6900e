// preduce::float16 and preduce::bfloat16 (preduce/half.hpp): widening is exact for every
// one of the 65536 bit patterns of each, and rounding a float to either gives the nearest
// value, ties to even, overflow to infinity and NaN to a quiet NaN. The oracles are
// independent of the header: ldexp in double for the values, the nearest of the two
// neighbours (by distance in double) for rounding, and where the compiler has _Float16,
// its own conversions.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "preduce/half.hpp"

using preduce::bfloat16;
using preduce::float16;

namespace {

// The value of a float16 bit pattern from its fields, in double (exact: 11 significant bits).
double float16_value(std::uint16_t bits) {
    const int sign = (bits & 0x8000) ? -1 : 1;
    const int exponent = (bits >> 10) & 0x1f;
    const int fraction = bits & 0x3ff;
    if (exponent == 0x1f) return fraction ? std::numeric_limits<double>::quiet_NaN() : sign * HUGE_VAL;
    if (exponent == 0) return sign * std::ldexp(fraction, -24);
    return sign * std::ldexp(1024 + fraction, exponent - 25);
}

double bfloat16_value(std::uint16_t bits) {
    const int sign = (bits & 0x8000) ? -1 : 1;
    const int exponent = (bits >> 7) & 0xff;
    const int fraction = bits & 0x7f;
    if (exponent == 0xff) return fraction ? std::numeric_limits<double>::quiet_NaN() : sign * HUGE_VAL;
    if (exponent == 0) return sign * std::ldexp(fraction, -133);
    return sign * std::ldexp(128 + fraction, exponent - 134);
}

std::uint32_t bits_of(float f) { return std::bit_cast<std::uint32_t>(f); }

// What rounding x (finite, >= 0) to a format must give, from the format's ordered
// non-negative bit patterns: the nearest of the two neighbours of x, the even one on a tie;
// beyond the largest finite value by half its ulp or more, infinity.
template <class Value>
std::uint16_t nearest(double x, std::uint16_t largest_finite, std::uint16_t infinity, Value value) {
    std::uint16_t lo = 0, hi = largest_finite;
    if (x >= value(largest_finite)) {
        const double half_ulp = (value(largest_finite) - value(static_cast<std::uint16_t>(largest_finite - 1))) / 2;
        return x >= value(largest_finite) + half_ulp ? infinity : largest_finite;
    }
    while (hi - lo > 1) {  // value(lo) <= x < value(hi)
        const auto mid = static_cast<std::uint16_t>((lo + hi) / 2);
        (value(mid) <= x ? lo : hi) = mid;
    }
    const double below = x - value(lo), above = value(hi) - x;
    if (below < above) return lo;
    if (above < below) return hi;
    return (lo & 1) ? hi : lo;
}

std::uint16_t nearest_float16(float f) {
    const auto m = nearest(std::fabs(static_cast<double>(f)), 0x7bff, 0x7c00, float16_value);
    return static_cast<std::uint16_t>(m | (std::signbit(f) ? 0x8000 : 0));
}
std::uint16_t nearest_bfloat16(float f) {
    const auto m = nearest(std::fabs(static_cast<double>(f)), 0x7f7f, 0x7f80, bfloat16_value);
    return static_cast<std::uint16_t>(m | (std::signbit(f) ? 0x8000 : 0));
}

// Floats that test rounding into a 16-bit format: each non-negative finite pattern's value
// and its neighbours, the midpoint to the next pattern and the floats on either side of it,
// with both signs; plus random floats over the whole range.
template <class Value>
std::vector<float> rounding_probes(std::uint16_t largest_finite, Value value) {
    std::vector<float> out;
    const auto add = [&](float f) {
        out.push_back(f);
        out.push_back(-f);
    };
    for (std::uint32_t b = 0; b <= largest_finite; ++b) {
        const auto v = static_cast<float>(value(static_cast<std::uint16_t>(b)));
        const double next = b < largest_finite ? value(static_cast<std::uint16_t>(b + 1))
                                               : 2 * value(static_cast<std::uint16_t>(b)) -
                                                     value(static_cast<std::uint16_t>(b - 1));
        const auto mid = static_cast<float>((value(static_cast<std::uint16_t>(b)) + next) / 2);  // exact in float
        for (float f : {v, mid})
            for (float g : {f, std::nextafter(f, 0.0f), std::nextafter(f, HUGE_VALF)}) add(g);
    }
    std::mt19937 rng(20261202);
    for (int i = 0; i < 200000; ++i) {
        const float f = std::bit_cast<float>(static_cast<std::uint32_t>(rng()));
        if (std::isfinite(f)) out.push_back(f);
    }
    for (float f : {0.0f, std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::min(),
                    std::numeric_limits<float>::max(), 1e30f, 65504.0f, 65519.998f, 65520.0f, 0x1p-25f, 0x1p-24f,
                    0x1.8p-25f, 0x1.000002p-25f})
        add(f);
    return out;
}

} // namespace

TEST_CASE("float16: every bit pattern widens to its exact value", "[half]") {
    for (std::uint32_t b = 0; b < 0x10000; ++b) {
        const auto bits = static_cast<std::uint16_t>(b);
        const float f = preduce::to_float(float16{bits});
        const double want = float16_value(bits);
        INFO("float16 bits 0x" << std::hex << b);
        if (std::isnan(want)) {
            REQUIRE(std::isnan(f));
            // Sign and payload carried over: the float's fraction is the half's, shifted.
            REQUIRE(bits_of(f) == ((static_cast<std::uint32_t>(bits & 0x8000) << 16) | 0x7f800000u |
                                   (static_cast<std::uint32_t>(bits & 0x3ff) << 13)));
        } else {
            REQUIRE(static_cast<double>(f) == want);
            REQUIRE(std::signbit(f) == static_cast<bool>(bits & 0x8000));
        }
    }
}

TEST_CASE("bfloat16: every bit pattern widens to its exact value", "[half]") {
    for (std::uint32_t b = 0; b < 0x10000; ++b) {
        const auto bits = static_cast<std::uint16_t>(b);
        const float f = preduce::to_float(bfloat16{bits});
        const double want = bfloat16_value(bits);
        INFO("bfloat16 bits 0x" << std::hex << b);
        REQUIRE(bits_of(f) == static_cast<std::uint32_t>(bits) << 16);
        if (std::isnan(want)) REQUIRE(std::isnan(f));
        else REQUIRE(static_cast<double>(f) == want);
    }
}

TEST_CASE("16-bit floats: widening then rounding gives every pattern back, NaNs made quiet", "[half]") {
    for (std::uint32_t b = 0; b < 0x10000; ++b) {
        const auto bits = static_cast<std::uint16_t>(b);
        INFO("bits 0x" << std::hex << b);
        const bool half_nan = (bits & 0x7c00) == 0x7c00 && (bits & 0x3ff) != 0;
        CHECK(preduce::to_float16(preduce::to_float(float16{bits})).bits == (half_nan ? (bits | 0x200) : bits));
        const bool bf_nan = (bits & 0x7f80) == 0x7f80 && (bits & 0x7f) != 0;
        CHECK(preduce::to_bfloat16(preduce::to_float(bfloat16{bits})).bits == (bf_nan ? (bits | 0x40) : bits));
    }
}

TEST_CASE("float16: rounding a float gives the nearest value, ties to even, overflow to infinity", "[half]") {
    for (float f : rounding_probes(0x7bff, float16_value)) {
        INFO("float " << f << " (bits 0x" << std::hex << bits_of(f) << ")");
        REQUIRE(preduce::to_float16(f).bits == nearest_float16(f));
    }
    CHECK(preduce::to_float16(HUGE_VALF).bits == 0x7c00);
    CHECK(preduce::to_float16(-HUGE_VALF).bits == 0xfc00);
    const float negative_nan = -std::numeric_limits<float>::quiet_NaN();
    CHECK(preduce::to_float16(negative_nan).bits == 0xfe00);
    // 0x7fa00000: made quiet (0x200), the payload's upper bits (0x100) kept.
    CHECK(preduce::to_float16(std::numeric_limits<float>::signaling_NaN()).bits == 0x7f00);
}

TEST_CASE("bfloat16: rounding a float gives the nearest value, ties to even, overflow to infinity", "[half]") {
    for (float f : rounding_probes(0x7f7f, bfloat16_value)) {
        INFO("float " << f << " (bits 0x" << std::hex << bits_of(f) << ")");
        REQUIRE(preduce::to_bfloat16(f).bits == nearest_bfloat16(f));
    }
    CHECK(preduce::to_bfloat16(HUGE_VALF).bits == 0x7f80);
    CHECK(preduce::to_bfloat16(-std::numeric_limits<float>::quiet_NaN()).bits == 0xffc0);
    CHECK(preduce::to_bfloat16(std::numeric_limits<float>::signaling_NaN()).bits == 0x7fe0);
}

#if defined(__FLT16_MAX__)
TEST_CASE("float16: the same conversions as the compiler's _Float16", "[half]") {
    for (std::uint32_t b = 0; b < 0x10000; ++b) {
        const auto bits = static_cast<std::uint16_t>(b);
        const auto h = std::bit_cast<_Float16>(bits);
        const float f = preduce::to_float(float16{bits});
        INFO("float16 bits 0x" << std::hex << b);
        if (std::isnan(f)) REQUIRE(std::isnan(static_cast<float>(h)));
        else REQUIRE(bits_of(f) == bits_of(static_cast<float>(h)));
    }
    for (float f : rounding_probes(0x7bff, float16_value)) {
        INFO("float " << f);
        REQUIRE(preduce::to_float16(f).bits == std::bit_cast<std::uint16_t>(static_cast<_Float16>(f)));
    }
}
#endif

TEST_CASE("16-bit floats are usable in constant expressions", "[half]") {
    static_assert(preduce::to_float(float16{0x3c00}) == 1.0f);
    static_assert(preduce::to_float(float16{0x0001}) == 0x1p-24f);
    static_assert(preduce::to_float(bfloat16{0x3f80}) == 1.0f);
    static_assert(preduce::to_float16(65504.0f).bits == 0x7bff);
    static_assert(preduce::to_bfloat16(1.0f).bits == 0x3f80);
    SUCCEED();
}
