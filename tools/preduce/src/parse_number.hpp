#pragma once
// One number from a whole piece of text, in the element type it will be reduced in, so
// "0.1" becomes the float nearest 0.1 for float data rather than a rounded double.
#include <charconv>
#include <optional>
#include <string_view>
#include <system_error>

namespace preduce_cli {

enum class parse_status { ok, malformed, out_of_range };

template <class T>
struct parsed {
    T value{};
    parse_status status = parse_status::malformed;
};

// The whole of `text` must be the number: no trailing junk, no surrounding spaces.
// A leading '+' is allowed (std::from_chars refuses it, people write it).
template <class T>
parsed<T> parse_number(std::string_view text) {
    if (text.size() > 1 && text.front() == '+' && text[1] != '-' && text[1] != '+') text.remove_prefix(1);
    parsed<T> out;
    if (text.empty()) return out;
    const char* end = text.data() + text.size();
    const auto [stop, ec] = std::from_chars(text.data(), end, out.value);
    if (ec == std::errc::result_out_of_range && stop == end) out.status = parse_status::out_of_range;
    else if (ec == std::errc{} && stop == end) out.status = parse_status::ok;
    return out;
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
