#pragma once
// Inputs for pinned golden results: values a few lines of integer arithmetic define
// exactly on every platform (splitmix64, then a signed integer of the type's precision
// scaled by a power of two in [2^-40, 2^0], exact in T), so the expected bits of a
// fixed-order sum over them can be written into a test once and checked forever.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace preduce::test {

template <class T>
std::vector<T> golden_values(std::size_t n, std::uint64_t stream) {
    constexpr int p = std::numeric_limits<T>::digits;  // 24 or 53
    std::vector<T> out(n);
    std::uint64_t state = stream * 0x9E3779B97F4A7C15ull;
    for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        const auto m = static_cast<std::int64_t>(z >> (64 - p)) - (std::int64_t{1} << (p - 1));
        const int e = static_cast<int>(z & 0xff) % 41 - 40;
        out[i] = std::ldexp(static_cast<T>(m), e);
    }
    return out;
}

} // namespace preduce::test
