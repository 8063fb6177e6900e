#pragma once
// One number from a whole piece of text, in the element type it will be reduced in, so
// "0.1" becomes the float nearest 0.1 for float data rather than a rounded double.
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <system_error>

#include "input/element_type.hpp"

namespace preduce_cli {

enum class parse_status { ok, malformed, out_of_range };

template <class T>
struct parsed {
    T value{};
    parse_status status = parse_status::malformed;
};

namespace detail {
// d rounded to float toward zero, with the last bit set when that lost anything ("round
// to odd"): rounding that float to a format of at most 22 significand bits gives the same
// value as rounding d directly, with no double-rounding error (float has 24 bits).
inline float to_float_round_to_odd(double d) {
    float f = static_cast<float>(d);
    if (!std::isfinite(f) || static_cast<double>(f) == d) return f;
    if (std::fabs(static_cast<double>(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);
    return std::bit_cast<float>(std::bit_cast<std::uint32_t>(f) | 1u);
}
} // namespace detail

// The whole of `text` must be the number: no trailing junk, no surrounding spaces.
// A leading '+' is allowed (std::from_chars refuses it, people write it).
// float16 and bfloat16 (which std::from_chars does not know): the text is read as a
// double and rounded to the nearest value of the type (ties to even); as for float and
// double, a finite value that rounds to infinity (beyond the largest finite value) or a
// non-zero one that rounds to zero is out_of_range.
template <class T>
parsed<T> parse_number(std::string_view text) {
    parsed<T> out;
    if constexpr (is_half_v<T>) {
        const parsed<double> d = parse_number<double>(text);
        out.status = d.status;
        if (d.status != parse_status::ok) return out;
        const float f = detail::to_float_round_to_odd(d.value);
        if constexpr (std::is_same_v<T, preduce::float16>) out.value = preduce::to_float16(f);
        else out.value = preduce::to_bfloat16(f);
        const float back = preduce::to_float(out.value);
        if ((std::isinf(back) && !std::isinf(d.value)) || (back == 0 && d.value != 0))
            out.status = parse_status::out_of_range;
        return out;
    } else {
        if (text.size() > 1 && text.front() == '+' && text[1] != '-' && text[1] != '+') text.remove_prefix(1);
        if (text.empty()) return out;
        const char* end = text.data() + text.size();
        const auto [stop, ec] = std::from_chars(text.data(), end, out.value);
        if (ec == std::errc::result_out_of_range && stop == end) out.status = parse_status::out_of_range;
        else if (ec == std::errc{} && stop == end) out.status = parse_status::ok;
        return out;
    }
}

// Optional sign and decimal digits only: the lines a text file can hold as int64.
inline bool looks_integral(std::string_view text) {
    if (!text.empty() && (text.front() == '+' || text.front() == '-')) text.remove_prefix(1);
    if (text.empty()) return false;
    for (char c : text)
        if (c < '0' || c > '9') return false;
    return true;
}

} // namespace preduce_cli
