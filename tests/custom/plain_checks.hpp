#pragma once
// Plain checks, no test framework (the same files go through nvcc): a failed check prints
// its line and the context, and counts. With the seed, the sizes every body walks, and
// on(), which puts a vector where the including file's put() says (residencies()).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace custom_test {

inline int failures = 0;
inline long checks = 0;
inline std::string context;

inline void check(bool ok, const char* what, int line) {
    ++checks;
    if (ok) return;
    if (++failures <= 50) std::fprintf(stderr, "FAILED line %d: %s [%s]\n", line, what, context.c_str());
}
#define CUSTOM_CHECK(cond) ::custom_test::check((cond), #cond, __LINE__)

inline std::uint64_t seed() {
    static const std::uint64_t s = []() -> std::uint64_t {
        if (const char* env = std::getenv("PREDUCE_TEST_SEED")) return std::strtoull(env, nullptr, 0);
        return static_cast<std::uint64_t>(std::random_device{}()) << 32 | std::random_device{}();
    }();
    return s;
}

// Sizes at every lane, chunk (16K), warp, block, tile and grid boundary of the backends.
inline const std::vector<std::size_t> sizes = {0,     1,     2,     3,     31,     32,     33,     255,
                                               256,   257,   1023,  1024,  1025,   4095,   4096,   4097,
                                               16383, 16384, 16385, 32767, 32768,  32769,  65536,  65537,
                                               262147, 1048579, 3000017};

template <class T>
const T* on(const std::vector<T>& v, int slot, std::size_t residency) {
    return v.empty() ? v.data() : static_cast<const T*>(put(v.data(), v.size() * sizeof(T), slot, residency));
}

} // namespace custom_test
