#pragma once
#include <cstdint>
#include <type_traits>

#include "preduce/half.hpp"

namespace preduce::detail {

// Names used in messages and reports; "?" for types the front end does not know.
template <class T>
constexpr const char* type_name() noexcept {
    if constexpr (std::is_same_v<T, std::int8_t>) return "int8";
    else if constexpr (std::is_same_v<T, std::uint8_t>) return "uint8";
    else if constexpr (std::is_same_v<T, std::int16_t>) return "int16";
    else if constexpr (std::is_same_v<T, std::uint16_t>) return "uint16";
    else if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
    else if constexpr (std::is_same_v<T, std::uint32_t>) return "uint32";
    else if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
    else if constexpr (std::is_same_v<T, std::uint64_t>) return "uint64";
    else if constexpr (std::is_same_v<T, float16>) return "float16";
    else if constexpr (std::is_same_v<T, bfloat16>) return "bfloat16";
    else if constexpr (std::is_same_v<T, float>) return "float32";
    else if constexpr (std::is_same_v<T, double>) return "float64";
    else return "?";
}

} // namespace preduce::detail
