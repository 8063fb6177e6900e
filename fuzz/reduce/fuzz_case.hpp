#pragma once
// One fuzz input decoded into a reduction to run on every host backend. The byte layout
// (fuzz/make_corpus.py writes the same one; missing header bytes read as 0):
//
//   [0]     element type   % 12: int32, uint32, int64, uint64, float, double, then the
//           narrow types int8, uint8, int16, uint16, float16, bfloat16 (6..11)
//   [1]     operation      % 16: see `op` below
//   [2]     precision      % 3: fast, deterministic, compensated
//   [3]     OpenMP threads % 5: 0 (the default) .. 4
//   [4]     placement: bits 0-3 start offset in elements (0..15, so aligned to the element
//           but not to 16/32/64 bytes); bits 4-6 an extra byte offset (taken mod sizeof(T):
//           nonzero makes a misaligned pointer, which must be refused; never for 1-byte
//           types); 0xff: a null pointer
//   [5]     bits 0-1 size mode: 0 as many elements as value bytes, 1 a block/chunk/
//           threshold boundary (4096-element blocks, 16384-element OpenMP chunks,
//           32768-element parallel threshold) +-3, 2 any size below 2^17, 3 below 256;
//           bits 2-3 values: 0 the value bytes (repeated to fill n), 1 generated from a
//           seed hashed from them (data.hpp's distribution; 16-bit floats: [-1, 1) times
//           2^[-10, 10], rounded), 2 few distinct values (-2..2: ties), 3 random bit
//           patterns (every NaN, infinity, denormal); bit 4: size + 2^16
//   [6..7]  size parameter (little endian)
//   [8]     count_if predicate: bits 0-2 kind (equal .. is_nan); bits 3-4 threshold type:
//           the element type, double, int64 or uint64 (conversions must be exact or refused)
//   [9,10]  threshold selectors (lower and upper bound): < 128 an element of the data,
//           otherwise a special value (NaN, +-inf, 2^63, INT_MIN, 0.5, ...; for the narrow
//           types also their range edges: 65504, 65520, 2^-24, 127, 128, 65536, ...)
//   [11]    bits 0-3: number of injections
//   then    4 bytes per injection: a position (24 bits, mod n) and a special value
//           (NaN, +-inf, +-0, denormals, max/lowest, ...) written there
//   then    the value bytes (sizeof(T) little-endian bytes per element)
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "preduce/precision.hpp"
#include "preduce/reducers.hpp"

namespace preduce_fuzz {

enum class element { i32, u32, i64, u64, f32, f64, i8, u8, i16, u16, f16, bf16 };
inline constexpr int element_count = 12;
enum class op { sum, wide_sum, prod, min, max, argmin, argmax, count_if, sumsq, asum, dot, minmax, mean, variance,
                moments, sum_count };
enum class values_from { raw, generated, few, any_bits };
enum class threshold_type { element, f64, i64, u64 };

inline constexpr std::size_t header_bytes = 12;
inline constexpr std::size_t injection_bytes = 4;

struct injection {
    std::uint32_t position;  // mod n
    std::uint8_t kind;       // index into the special values of the element type
};

struct fuzz_case {
    element type = element::i32;
    op operation = op::sum;
    preduce::precision precision = preduce::precision::fast;
    int threads = 0;
    std::size_t n = 0;
    std::size_t offset = 0;       // elements
    std::size_t byte_offset = 0;  // raw 0..7; the body takes it mod sizeof(T)
    bool null_data = false;
    values_from values_mode = values_from::raw;
    preduce::predicate_kind predicate = preduce::predicate_kind::equal;
    threshold_type thresholds = threshold_type::element;
    std::uint8_t select_a = 0, select_b = 0;
    std::vector<injection> injections;
    std::span<const std::uint8_t> values;  // points into the input
};

fuzz_case decode(std::span<const std::uint8_t> bytes);

// One line naming everything decode() chose, for failure messages.
std::string describe(const fuzz_case& c);

const char* name(element e);
std::size_t element_size(element e);
const char* name(op o);

} // namespace preduce_fuzz
