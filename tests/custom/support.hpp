#pragma once
// What every custom body shares: the seed (PREDUCE_TEST_SEED repeats a run), the sizes every
// body walks, and on(), which puts a vector where the including file's put() says
// (residencies()). The checks are Catch2's.
#include <cstddef>
#include <vector>

#include "support/data.hpp"

namespace custom_test {

using preduce::test::seed;

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
