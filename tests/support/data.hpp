#pragma once
// Test inputs: fresh random data (a new seed per process unless PREDUCE_TEST_SEED is
// set, printed on failure), plus the values the shared semantics single out (README.md's
// table: NaN, infinities, signed zeros, denormals, extremes).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

namespace preduce::test {

// Whether this build runs under the sanitizers (tests/CMakeLists.txt): there the shared
// body leaves out inputs that only repeat, several times slower, paths a smaller one reaches.
#ifdef PREDUCE_TEST_INSTRUMENTED
inline constexpr bool instrumented = true;
#else
inline constexpr bool instrumented = false;
#endif

inline std::uint64_t seed() {
    static const std::uint64_t s = []() -> std::uint64_t {
        if (const char* env = std::getenv("PREDUCE_TEST_SEED")) return std::strtoull(env, nullptr, 0);
        std::random_device rd;
        return static_cast<std::uint64_t>(rd()) << 32 | rd();
    }();
    return s;
}

// Values with negatives (for unsigned types: the full range), never all zero.
// Floats: uniform in [-1, 1) times a random power of two in [2^-20, 2^20], so sums see
// cancellation and magnitudes that differ by 2^40.
template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t salt = 0) {
    std::mt19937_64 rng(seed() ^ (salt * 0x9E3779B97F4A7C15ull));
    std::vector<T> v(n);
    if constexpr (std::is_floating_point_v<T>) {
        std::uniform_real_distribution<T> u(T(-1), T(1));
        std::uniform_int_distribution<int> e(-20, 20);
        for (auto& x : v) x = std::ldexp(u(rng), e(rng));
    } else {
        std::uniform_int_distribution<T> u(std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max());
        for (auto& x : v) x = u(rng);
    }
    return v;
}

// Inputs whose product neither overflows nor underflows nor becomes 0 mod 2^k:
// floats close to 1, odd integers.
template <class T>
std::vector<T> product_values(std::size_t n, std::uint64_t salt = 0) {
    std::mt19937_64 rng(seed() ^ (salt * 0xD1B54A32D192ED03ull) ^ 0x5555);
    std::vector<T> v(n);
    if constexpr (std::is_floating_point_v<T>) {
        std::uniform_real_distribution<double> u(-1e-3, 1e-3);
        for (auto& x : v) x = static_cast<T>(std::exp(u(rng)));
    } else {
        std::uniform_int_distribution<std::uint64_t> u;
        for (auto& x : v) x = static_cast<T>(u(rng) | 1u);
    }
    return v;
}

// Few distinct values, so min/max/argmin/argmax meet many ties.
template <class T>
std::vector<T> tie_values(std::size_t n, std::uint64_t salt = 0) {
    std::mt19937_64 rng(seed() ^ (salt * 0x94D049BB133111EBull) ^ 0xAAAA);
    std::uniform_int_distribution<int> u(0, 3);
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(u(rng));
    return v;
}

} // namespace preduce::test
