#pragma once
// Which elements each result of a many-results call reduces, in one descriptor every
// backend reads the same way (segmented.hpp is the public side):
//
//   offsets  segment s is [offsets[s], offsets[s + 1]) of the data (CSR; reduce_segments,
//            reduce_by_key's runs)
//   fixed    segment s is [s * size, (s + 1) * size) (reduce_batches; reduce_axes over
//            trailing axes)
//   strided  segment s = (o, c), o = s / inner, c = s % inner, is the `size` elements
//            o * size * inner + j * inner + c, j = 0 .. size - 1 (reduce_axes over one group of
//            adjacent axes with kept axes after it: axis 0 of a matrix is o = 0, c = column)
//
// Element j of a segment is lifted with index j (its position inside the segment), so
// argmin/argmax report positions inside their segment, and every segment is reduced as if
// it were the whole input: the same semantics, the same fixed order (its own 4096-element
// blocks, counted from the segment's first element), the identity for an empty segment.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

#include "preduce/detail/core/hd.hpp"
#include "preduce/errors.hpp"
#include "preduce/source.hpp"

namespace preduce::detail {

enum class segment_form : unsigned char { offsets, fixed, strided };

struct segment_layout {
    segment_form form = segment_form::fixed;
    std::uint64_t count = 0;                  // m: segments, and results
    const std::uint64_t* offsets = nullptr;   // offsets: count + 1 non-decreasing entries
    std::uint64_t size = 0;                   // fixed, strided: elements per segment
    std::uint64_t inner = 1;                  // strided: segments side by side in a row

    // First element and element count of segment s (offsets: read from the array, which must
    // be readable where this runs).
    PREDUCE_HD constexpr std::uint64_t begin(std::uint64_t s) const noexcept {
        switch (form) {
        case segment_form::offsets: return offsets[s];
        case segment_form::fixed: return s * size;
        default: return (s / inner) * size * inner + s % inner;
        }
    }
    PREDUCE_HD constexpr std::uint64_t length(std::uint64_t s) const noexcept {
        return form == segment_form::offsets ? offsets[s + 1] - offsets[s] : size;
    }
    // Distance between consecutive elements of a segment.
    PREDUCE_HD constexpr std::uint64_t stride() const noexcept { return form == segment_form::strided ? inner : 1; }
    // Elements the segments cover at most (the data's extent they may read).
    std::uint64_t extent() const noexcept {
        if (form == segment_form::offsets) return count == 0 ? 0 : offsets[count];
        return count * size;
    }
};

// A source read with a stride: element i is base[i * stride]. What a strided segment looks
// like to code written for a plain source (the fixed order's block_value).
template <class S>
struct strided_source {
    S base;
    std::size_t stride;
    PREDUCE_HD constexpr auto operator[](std::size_t i) const { return base[i * stride]; }
    PREDUCE_HD constexpr strided_source operator+(std::size_t k) const { return {base + k * stride, stride}; }
};

// Entry s of an offsets array, o, after `previous` (entry s - 1, or 0 for s = 0), in data of
// n elements: throws the error that names the first wrong entry.
inline void check_offset_entry(std::uint64_t s, std::uint64_t previous, std::uint64_t o, std::uint64_t n) {
    if (o < previous)
        throw invalid_argument("preduce::reduce_segments: offsets decrease at entry " + std::to_string(s) + " (" +
                               std::to_string(previous) + " then " + std::to_string(o) +
                               "); segment s is [offsets[s], offsets[s + 1]) and offsets must not decrease");
    if (o > n)
        throw invalid_argument("preduce::reduce_segments: offsets[" + std::to_string(s) + "] = " + std::to_string(o) +
                               " is past the end of the data (" + std::to_string(n) + " elements)");
}

// Checks of a layout against data of n elements, before any work. For offsets in host
// memory: m + 1 non-decreasing entries from 0 .. n (the last may be below n: the elements
// after it belong to no segment). Device-resident offsets are checked by the backend that
// reads them.
inline void check_offsets(const std::uint64_t* offsets, std::uint64_t m, std::uint64_t n) {
    if (offsets == nullptr)
        throw invalid_argument("preduce::reduce_segments: offsets is null; pass m + 1 offsets (m = " + std::to_string(m) +
                               " segments)");
    std::uint64_t previous = 0;
    for (std::uint64_t s = 0; s <= m; ++s) {
        check_offset_entry(s, previous, offsets[s], n);
        previous = offsets[s];
    }
}

inline void check_output(const void* out, std::uint64_t m, std::uint64_t capacity, const char* call) {
    if (capacity < m)
        throw invalid_argument(std::string(call) + ": the output holds " + std::to_string(capacity) + " results but there are " +
                               std::to_string(m) + " segments");
    if (m != 0 && out == nullptr) throw invalid_argument(std::string(call) + ": the output is null but there are " +
                                                         std::to_string(m) + " segments");
}

// The layouts of reduce_segments (offsets, already checked) and reduce_batches (n / k
// segments of k; refuses a k that does not divide n).
inline segment_layout offsets_form(const std::uint64_t* offsets, std::uint64_t m) {
    segment_layout L;
    L.form = segment_form::offsets;
    L.count = m;
    L.offsets = offsets;
    return L;
}

inline segment_layout batches_form(std::uint64_t n, std::uint64_t k) {
    if (k == 0) {
        if (n != 0)
            throw invalid_argument("preduce::reduce_batches: segment size 0 with " + std::to_string(n) +
                                   " elements; give a size that divides the data");
        return {};
    }
    if (n % k != 0)
        throw invalid_argument("preduce::reduce_batches: " + std::to_string(n) + " elements are not a whole number of "
                               "segments of " + std::to_string(k) + " (" + std::to_string(n % k) + " left over)");
    segment_layout L;
    L.form = segment_form::fixed;
    L.count = n / k;
    L.size = k;
    return L;
}

} // namespace preduce::detail
