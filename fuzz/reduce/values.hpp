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
// INT_MIN/MAX and their neighbours.
template <class T>
std::vector<T> special_values() {
    using L = std::numeric_limits<T>;
    if constexpr (std::is_floating_point_v<T>) {
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
        return {L::min(), L::max(), T(0), T(1), T(-1), T(L::min() + 1), T(L::max() - 1), T(std::int64_t{1} << 31),
                T(16777217), T(std::int64_t{1} << 53 | 1), T(std::uint64_t{1} << 63)};
    }
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
        // tests/support/data.hpp's random_values: floats uniform in [-1, 1) times 2^[-20, 20],
        // integers over the whole range.
        for (auto& v : x) {
            const std::uint64_t r = rng.next();
            if constexpr (std::is_floating_point_v<T>) {
                const double unit = static_cast<double>(r >> 11) * 0x1p-53 * 2.0 - 1.0;
                v = static_cast<T>(std::ldexp(unit, static_cast<int>(r % 41) - 20));
            } else {
                v = from_bits<T>(r);
            }
        }
        break;
    case values_from::few:
        for (auto& v : x) v = static_cast<T>(static_cast<int>(rng.next() % 5) - 2);  // -2..2 (unsigned: wraps)
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
