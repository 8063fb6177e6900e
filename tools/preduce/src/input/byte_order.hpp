#pragma once
// The file formats store little-endian values (a .npy may say big-endian); a host of the
// other byte order swaps them in place after reading. Otherwise this compiles to nothing.
#include <algorithm>
#include <bit>
#include <cstddef>

namespace preduce_cli {

template <class T>
void little_endian_to_host(T* data, std::size_t n) {
    if constexpr (std::endian::native == std::endian::big && sizeof(T) > 1) {
        auto* bytes = reinterpret_cast<unsigned char*>(data);
        for (std::size_t i = 0; i < n; ++i) std::reverse(bytes + i * sizeof(T), bytes + (i + 1) * sizeof(T));
    } else {
        (void)data;
        (void)n;
    }
}

// The same for values stored big-endian (a .npy dtype with '>'): swapped on little-endian hosts.
template <class T>
void big_endian_to_host(T* data, std::size_t n) {
    if constexpr (std::endian::native == std::endian::little && sizeof(T) > 1) {
        auto* bytes = reinterpret_cast<unsigned char*>(data);
        for (std::size_t i = 0; i < n; ++i) std::reverse(bytes + i * sizeof(T), bytes + (i + 1) * sizeof(T));
    } else {
        (void)data;
        (void)n;
    }
}

} // namespace preduce_cli
