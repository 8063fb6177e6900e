#pragma once
// The element values of a fuzz case (fuzz_case.hpp): a short input grows into up to
// ~130K elements by repetition or from a seed, so that the block, chunk and threshold
// sizes of every backend cost the fuzzer a few bytes, not a few hundred kilobytes.
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "fuzz_case.hpp"
#include "preduce/detail/core/numeric.hpp"
#include "preduce/half.hpp"

namespace preduce_fuzz {

// splitmix64: small, fast, and the same sequence on every platform (std distributions
// are not), so a corpus file means the same data everywhere.
struct splitmix {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
};

inline std::uint64_t hash_bytes(std::span<const std::uint8_t> b) {
    std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a
    for (std::uint8_t v : b) h = (h ^ v) * 0x100000001b3ull;
    return h;
}

// The values the shared semantics single out (README.md's table): NaN (quiet, negative,
// signalling, with payload), infinities, signed zeros, denormals, extremes; for integers
// INT_MIN/MAX and their neighbours. The 16-bit floats keep the float's indices 0..17 (so a
// corpus file's injections mean the same kind of value for every float type), then values
// whose float sums round; the 8/16-bit integers keep the integers' indices 0..6.
template <class T>
std::vector<T> special_values() {
    if constexpr (preduce::detail::is_half_v<T>) {
        constexpr bool f16 = std::is_same_v<T, preduce::float16>;
        const auto h = [](unsigned b) { return T{static_cast<std::uint16_t>(b)}; };
        // float16: 1 + 5 + 10 bits; bfloat16: 1 + 8 + 7 bits.
        const unsigned exp_all = f16 ? 0x7c00 : 0x7f80, quiet = f16 ? 0x0200 : 0x0040;
        const unsigned frac = f16 ? 0x03ff : 0x007f, min_normal = f16 ? 0x0400 : 0x0080;
        const unsigned max = exp_all - 1;  // 0x7bff (65504), 0x7f7f (3.39e38)
        const unsigned one = f16 ? 0x3c00 : 0x3f80, epsilon = f16 ? 0x1400 : 0x3c00;  // 2^-10, 2^-7
        return {h(exp_all | quiet), h(0x8000 | exp_all | quiet), h(exp_all | 1),  // qNaN, -qNaN, sNaN
                h(exp_all | quiet | (0x2b & frac)),                                  // NaN with a payload
                h(exp_all), h(0x8000 | exp_all), h(0), h(0x8000), h(1), h(0x8001),
                h(frac),  // largest subnormal
                h(min_normal), h(0x8000 | min_normal), h(max), h(0x8000 | max), h(epsilon), h(one),
                h(0x8000 | one),
                // values that round in float sums: 0.1 (all fraction bits used), 1/3, 2^11 or
                // 2^24 (whose float ulp swallows a small term), -2^11 / -2^24, and 1 + ulp
                f16 ? h(0x2e66) : h(0x3dcd), f16 ? h(0x3555) : h(0x3eab), f16 ? h(0x6800) : h(0x4b80),
                f16 ? h(0xe800) : h(0xcb80), h(one + 1)};
    } else if constexpr (std::is_integral_v<T> && sizeof(T) < 4) {
        using L = std::numeric_limits<T>;
        return {L::min(), L::max(), T(0), T(1), T(-1), T(L::min() + 1), T(L::max() - 1)};
    } else if constexpr (std::is_floating_point_v<T>) {
        using L = std::numeric_limits<T>;
        using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
        constexpr int mant = L::digits - 1;
        const U exp_all = ((U(1) << (8 * sizeof(T) - 1 - mant)) - 1) << mant;
        const T snan = std::bit_cast<T>(U(exp_all | 1));            // signalling NaN
        const T payload_nan = std::bit_cast<T>(U(exp_all | (U(1) << (mant - 1)) | 0x5a5));
        return {L::quiet_NaN(), -L::quiet_NaN(), snan, payload_nan, L::infinity(), -L::infinity(),
                T(0), T(-0.0), L::denorm_min(), -L::denorm_min(),
                std::bit_cast<T>(U((U(1) << mant) - 1)),  // largest denormal
                L::min(), -L::min(), L::max(), L::lowest(), L::epsilon(), T(1), T(-1),
                T(16777217.0), T(0.1), T(1e30), T(-1e30)};
    } else {
        using L = std::numeric_limits<T>;
        return {L::min(), L::max(), T(0), T(1), T(-1), T(L::min() + 1), T(L::max() - 1), T(std::int64_t{1} << 31),
                T(16777217), T(std::int64_t{1} << 53 | 1), T(std::uint64_t{1} << 63)};
    }
}

// The exact value of a 16-bit float as a float, decoded from its fields here rather than by
// half.hpp's to_float (the narrow oracles must not borrow the conversion they check).
// NaNs come out as a NaN of the same sign; their payload is not kept.
template <class T>
    requires preduce::detail::is_half_v<T>
float half_value(T h) {
    constexpr bool f16 = std::is_same_v<T, preduce::float16>;
    constexpr int frac_bits = f16 ? 10 : 7, exp_max = f16 ? 31 : 255, bias = f16 ? 15 : 127;
    const bool negative = (h.bits & 0x8000u) != 0;
    const int e = (h.bits & 0x7fffu) >> frac_bits;
    const int f = h.bits & ((1 << frac_bits) - 1);
    float v;
    if (e == exp_max) v = f == 0 ? std::numeric_limits<float>::infinity() : std::numeric_limits<float>::quiet_NaN();
    else if (e == 0) v = std::ldexp(static_cast<float>(f), 1 - bias - frac_bits);  // subnormal: f 2^(emin - p + 1)
    else v = std::ldexp(static_cast<float>(f + (1 << frac_bits)), e - bias - frac_bits);
    return negative ? -v : v;
}

template <class T>
T from_bits(std::uint64_t bits) {
    T v;
    std::memcpy(&v, &bits, sizeof v);  // little endian: the low bytes
    return v;
}

template <class T>
std::vector<T> make_values(const fuzz_case& c) {
    std::vector<T> x(c.n);
    const auto& raw = c.values;
    splitmix rng{hash_bytes(raw)};
    switch (c.values_mode) {
    case values_from::raw:
        if (raw.empty()) break;  // all zeros
        for (std::size_t i = 0; i < c.n; ++i) {
            std::uint64_t bits = 0;
            for (std::size_t k = 0; k < sizeof(T); ++k)
                bits |= std::uint64_t{raw[(i * sizeof(T) + k) % raw.size()]} << (8 * k);
            x[i] = from_bits<T>(bits);
        }
        break;
    case values_from::generated:
        // tests/support/data.hpp's random_values: floats uniform in [-1, 1) times 2^[-20, 20]
        // (16-bit floats: a float in [-1, 1) times 2^[-10, 10], rounded to the type),
        // integers over the whole range.
        for (auto& v : x) {
            const std::uint64_t r = rng.next();
            if constexpr (preduce::detail::is_half_v<T>) {
                const float unit = static_cast<float>(r >> 40) * 0x1p-24f * 2.0f - 1.0f;
                v = preduce::detail::round_from_float<T>(std::ldexp(unit, static_cast<int>(r % 21) - 10));
            } else if constexpr (std::is_floating_point_v<T>) {
                const double unit = static_cast<double>(r >> 11) * 0x1p-53 * 2.0 - 1.0;
                v = static_cast<T>(std::ldexp(unit, static_cast<int>(r % 41) - 20));
            } else {
                v = from_bits<T>(r);
            }
        }
        break;
    case values_from::few:
        for (auto& v : x) {
            const int k = static_cast<int>(rng.next() % 5) - 2;  // -2..2 (unsigned: wraps)
            if constexpr (preduce::detail::is_half_v<T>) v = preduce::detail::round_from_float<T>(static_cast<float>(k));
            else v = static_cast<T>(k);
        }
        break;
    case values_from::any_bits:
        for (auto& v : x) v = from_bits<T>(rng.next());
        break;
    }
    if (!x.empty()) {
        const auto specials = special_values<T>();
        for (const injection& j : c.injections) x[j.position % x.size()] = specials[j.kind % specials.size()];
    }
    return x;
}

} // namespace preduce_fuzz
