#pragma once
// The element types the compiled front end accepts, as the CLI names them.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace preduce_cli {

enum class element_type { i32, u32, i64, u64, f32, f64 };

struct element_type_info {
    element_type type;
    std::string_view flag;  // what --type accepts
    std::size_t size;
};

inline constexpr std::array<element_type_info, 6> element_types{{
    {element_type::i32, "i32", 4},
    {element_type::u32, "u32", 4},
    {element_type::i64, "i64", 8},
    {element_type::u64, "u64", 8},
    {element_type::f32, "f32", 4},
    {element_type::f64, "f64", 8},
}};

constexpr const element_type_info& info(element_type t) {
    return element_types[static_cast<std::size_t>(t)];
}

inline std::optional<element_type> parse_element_type(std::string_view flag) {
    for (const auto& e : element_types)
        if (e.flag == flag) return e.type;
    return std::nullopt;
}

template <element_type E>
struct element_of;
template <> struct element_of<element_type::i32> { using type = std::int32_t; };
template <> struct element_of<element_type::u32> { using type = std::uint32_t; };
template <> struct element_of<element_type::i64> { using type = std::int64_t; };
template <> struct element_of<element_type::u64> { using type = std::uint64_t; };
template <> struct element_of<element_type::f32> { using type = float; };
template <> struct element_of<element_type::f64> { using type = double; };

} // namespace preduce_cli
