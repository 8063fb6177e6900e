#pragma once
// Inputs of every row: one large buffer per element type, random, never zero, from a
// fixed seed, generated once (on the first benchmark that needs that type, outside the
// timed loop) and shared by the backend rows and the anchors, so they read the same bytes.
//
// Memory, not cache: a row of n elements does not read the same n elements every
// iteration. Its start offset rotates through the buffer (n, 2n, ... wrapping), so
// between two reads of the same element at least a third of the buffer (>= 85 MiB with
// the default 256 MiB, well past the 32 MiB L3) has been read. Sizes of 2^10..2^20
// elements thus measure "n elements from DRAM" including the ramp-up of the hardware
// prefetchers, which is what a caller reducing fresh data sees. --in_cache turns the
// rotation off (offset 0 every iteration).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "preduce/half.hpp"

namespace preduce_bench {

// Short type names used in benchmark names: f32, f64, i32, ...
template <class T>
constexpr std::string_view type_tag();
template <> constexpr std::string_view type_tag<float>() { return "f32"; }
template <> constexpr std::string_view type_tag<double>() { return "f64"; }
template <> constexpr std::string_view type_tag<std::int32_t>() { return "i32"; }
template <> constexpr std::string_view type_tag<std::uint32_t>() { return "u32"; }
template <> constexpr std::string_view type_tag<std::int64_t>() { return "i64"; }
template <> constexpr std::string_view type_tag<std::uint64_t>() { return "u64"; }
template <> constexpr std::string_view type_tag<std::int8_t>() { return "i8"; }
template <> constexpr std::string_view type_tag<std::uint8_t>() { return "u8"; }
template <> constexpr std::string_view type_tag<std::int16_t>() { return "i16"; }
template <> constexpr std::string_view type_tag<std::uint16_t>() { return "u16"; }
template <> constexpr std::string_view type_tag<preduce::float16>() { return "f16"; }
template <> constexpr std::string_view type_tag<preduce::bfloat16>() { return "bf16"; }

// The whole buffer of type T (generated on first call; never freed).
// Floats: uniform in [-1, 1) without 0 (16-bit floats: such a float rounded to them);
// integers: uniform in [-2^30, 2^30) without 0 (unsigned: [1, 2^31)), so sums of 2^26
// int32 wrap, as they may; 8- and 16-bit integers: those values' low bits, without 0.
template <class T>
std::span<const T> input_buffer();

// The sequence of n-element windows a row reads, one per iteration (see above).
template <class T>
class windows {
public:
    explicit windows(std::size_t n);
    const T* next() noexcept {
        const T* p = base_ + k_ * n_;
        if (++k_ == slots_) k_ = 0;
        return p;
    }
    std::size_t slots() const noexcept { return slots_; }

private:
    const T* base_;
    std::size_t n_;
    std::size_t slots_;
    std::size_t k_ = 0;
};

} // namespace preduce_bench
