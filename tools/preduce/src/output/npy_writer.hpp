#pragma once
// Arrays written as NumPy .npy files (format 1.0): the results of a run, for reading back
// with numpy.load. The data bytes are built once and serve both the file and its SHA-256.
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <preduce/half.hpp>

namespace preduce_cli {

struct npy_array {
    std::string descr;                 // little-endian dtype: "<i4", "<f8", "<f2", "|u1", ... (npy_descr)
    std::vector<std::uint64_t> shape;  // outermost first
    std::vector<unsigned char> data;   // the elements in C order, little-endian
};

// The .npy dtype of an element type of the results. NumPy has no bfloat16: its results
// are written as their 16-bit patterns, "<u2" (numpy.ndarray.view(ml_dtypes.bfloat16) reads them).
template <class T>
std::string npy_descr() {
    if constexpr (std::is_same_v<T, preduce::float16>) {
        return "<f2";
    } else if constexpr (std::is_same_v<T, preduce::bfloat16>) {
        return "<u2";
    } else {
        static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool> &&
                          (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8),
                      "no .npy dtype for this type");
        const char kind = std::is_floating_point_v<T> ? 'f' : std::is_signed_v<T> ? 'i' : 'u';
        return std::string(sizeof(T) == 1 ? "|" : "<") + kind + static_cast<char>('0' + sizeof(T));
    }
}

// Appends v's bytes, least significant first whatever the host's byte order.
template <class T>
void append_le(std::vector<unsigned char>& bytes, T v) {
    unsigned char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    if constexpr (std::endian::native == std::endian::big)
        for (std::size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(b[i], b[sizeof(T) - 1 - i]);
    bytes.insert(bytes.end(), b, b + sizeof(T));
}

// The whole file: magic, version 1.0, the header dict padded so that the data start on a
// 64-byte boundary (as NumPy writes it), then the data.
std::string npy_file_header(const npy_array& a);

// Writes the file, replacing any that exists; throws std::runtime_error naming the path.
void write_npy(const std::string& path, const npy_array& a);

} // namespace preduce_cli
