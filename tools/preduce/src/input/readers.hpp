#pragma once
// The three input formats. Each reader gets the opened stream and its size in bytes,
// measured before reading, so every length a file claims is checked against what is
// really there before anything is allocated or read.
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli_error.hpp"
#include "input/dataset.hpp"
#include "input/element_type.hpp"

namespace preduce_cli {

// .npy (NumPy format 1.0, 2.0, 3.0): i1 u1 i2 u2 i4 u4 i8 u8 f2 f4 f8, each read as
// itself, multi-byte ones in either byte order ('<', '>', '='), and b1 read as uint8 (0 or
// 1); any shape, read in C order.
struct npy_contents {
    dataset data;                      // the values in C order
    std::vector<std::uint64_t> shape;  // as the header gives it: () for a scalar
};
npy_contents read_npy_shaped(std::istream& in, std::uint64_t size, const std::string& name);

// The values alone, flattened in C order.
dataset read_npy(std::istream& in, std::uint64_t size, const std::string& name);

// What the .npy preamble and header say, checked against the file size. Pure, so it
// can be fuzzed on its own: `prefix` is the first min(size, npy_max_prefix) bytes.
struct npy_header {
    std::string descr;            // as written, e.g. "<f4"
    element_type type;            // what the values are reduced as, and stored as
    bool big_endian;              // the values are stored big-endian ('>', or '=' on a big-endian host)
    bool is_bool;                 // |b1: any non-zero byte counts as 1
    std::uint64_t count;          // product of the shape
    std::uint64_t data_offset;    // where the values start
    std::vector<std::uint64_t> shape;  // the header's dimensions, outermost first
};
inline constexpr std::size_t npy_max_header = 65536;  // real headers are ~100 bytes
inline constexpr std::size_t npy_max_prefix = 12 + npy_max_header;
npy_header parse_npy_header(std::string_view prefix, std::uint64_t size, const std::string& name);

// Raw little-endian values of one type, nothing else in the file.
dataset read_raw(std::istream& in, std::uint64_t size, const std::string& name, element_type type);

// One number per line; blank lines and surrounding whitespace are ignored. Without
// `type`: int64 when every line is an integer, float64 otherwise.
dataset read_text(std::istream& in, std::uint64_t size, const std::string& name, std::optional<element_type> type);

// Reads exactly n bytes or throws: the file may shrink between measuring and reading.
inline void read_exact(std::istream& in, void* dst, std::uint64_t n, const std::string& name) {
    if (n == 0) return;
    in.read(static_cast<char*>(dst), static_cast<std::streamsize>(n));
    if (!in || static_cast<std::uint64_t>(in.gcount()) != n)
        throw input_error(name + ": read failed or the file ended early (it changed while being read?)");
}

} // namespace preduce_cli
