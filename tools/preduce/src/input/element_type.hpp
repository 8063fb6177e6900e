#pragma once
// The element types the compiled front end accepts, as the CLI names them: the one list
// that --type, --keys-type, the readers and every message naming the valid types use.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include <preduce/detail/core/numeric.hpp>
#include <preduce/half.hpp>

namespace preduce_cli {

enum class element_type { i32, u32, i64, u64, f32, f64, i8, u8, i16, u16, f16, bf16 };

struct element_type_info {
    element_type type;
    std::string_view flag;  // what --type accepts
    std::size_t size;
};

// In element_type order (info() indexes it).
inline constexpr std::array<element_type_info, 12> element_types{{
    {element_type::i32, "i32", 4},
    {element_type::u32, "u32", 4},
    {element_type::i64, "i64", 8},
    {element_type::u64, "u64", 8},
    {element_type::f32, "f32", 4},
    {element_type::f64, "f64", 8},
    {element_type::i8, "i8", 1},
    {element_type::u8, "u8", 1},
    {element_type::i16, "i16", 2},
    {element_type::u16, "u16", 2},
    {element_type::f16, "f16", 2},
    {element_type::bf16, "bf16", 2},
}};

constexpr const element_type_info& info(element_type t) {
    return element_types[static_cast<std::size_t>(t)];
}

inline std::optional<element_type> parse_element_type(std::string_view flag) {
    for (const auto& e : element_types)
        if (e.flag == flag) return e.type;
    return std::nullopt;
}

// The flags of every element type joined by sep: "i32, u32, ..." for messages,
// "i32|u32|..." for --help.
inline std::string element_type_names(std::string_view sep = ", ") {
    std::string out;
    for (const auto& e : element_types) {
        if (!out.empty()) out += sep;
        out += e.flag;
    }
    return out;
}

template <element_type E>
struct element_of;
template <> struct element_of<element_type::i32> { using type = std::int32_t; };
template <> struct element_of<element_type::u32> { using type = std::uint32_t; };
template <> struct element_of<element_type::i64> { using type = std::int64_t; };
template <> struct element_of<element_type::u64> { using type = std::uint64_t; };
template <> struct element_of<element_type::f32> { using type = float; };
template <> struct element_of<element_type::f64> { using type = double; };
template <> struct element_of<element_type::i8> { using type = std::int8_t; };
template <> struct element_of<element_type::u8> { using type = std::uint8_t; };
template <> struct element_of<element_type::i16> { using type = std::int16_t; };
template <> struct element_of<element_type::u16> { using type = std::uint16_t; };
template <> struct element_of<element_type::f16> { using type = preduce::float16; };
template <> struct element_of<element_type::bf16> { using type = preduce::bfloat16; };

// The 16-bit floats, and every floating-point element type (preduce/detail/core/numeric.hpp).
using preduce::detail::is_half_v;
template <class T>
inline constexpr bool is_floating_v = preduce::detail::is_float_element_v<T>;

// An element's value as an arithmetic type: 16-bit floats widened exactly to float.
template <class T>
constexpr auto numeric(T x) noexcept {
    if constexpr (is_half_v<T>) return preduce::to_float(x);
    else return x;
}

} // namespace preduce_cli
