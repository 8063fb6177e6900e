// Text input, one number per line. Two passes over the text held in memory: the first
// decides the element type (int64 only if every line is an integer, so that a sum of
// integers stays exact), the second parses each line in that type.
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "input/memory_budget.hpp"
#include "input/parse_number.hpp"
#include "input/readers.hpp"

namespace preduce_cli {
namespace {

constexpr std::string_view space = " \t\r\v\f";

// Calls f(line_number, trimmed_line) for every line that is not blank.
template <class F>
void for_each_value_line(std::string_view text, F&& f) {
    std::size_t line = 0;
    while (!text.empty()) {
        ++line;
        const std::size_t eol = text.find('\n');
        std::string_view s = text.substr(0, eol);
        text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
        const std::size_t first = s.find_first_not_of(space);
        if (first == std::string_view::npos) continue;
        s = s.substr(first, s.find_last_not_of(space) - first + 1);
        f(line, s);
    }
}

// The first 40 bytes of a line, quoted, with control bytes written as \xNN: the message
// travels through std::exception::what(), which would end at a NUL byte.
std::string quoted(std::string_view s) {
    constexpr std::size_t shown = 40;
    constexpr char hex[] = "0123456789abcdef";
    std::string out = "'";
    for (const char ch : s.substr(0, shown)) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == 0x7f) out += {'\\', 'x', hex[c >> 4], hex[c & 15]};
        else out += ch;
    }
    return out + (s.size() > shown ? "...'" : "'");
}

} // namespace

dataset read_text(std::istream& in, std::uint64_t size, const std::string& name, std::optional<element_type> type) {
    if (size == 0) throw input_error(name + ": file is empty");
    require_memory(size, 1, name + ": its " + std::to_string(size) + " bytes of text");
    std::string text(static_cast<std::size_t>(size), '\0');
    read_exact(in, text.data(), text.size(), name);

    std::size_t count = 0;
    bool all_integral = true;
    for_each_value_line(text, [&](std::size_t, std::string_view s) {
        ++count;
        all_integral = all_integral && looks_integral(s);
    });
    if (count == 0) throw input_error(name + ": no numbers in the file (only blank lines)");
    const bool inferred = !type;
    if (!type) type = all_integral ? element_type::i64 : element_type::f64;

    // The text stays in memory while the values are parsed next to it.
    require_memory(size + count * info(*type).size, 1,
                   name + ": its " + std::to_string(count) + " values of " + std::string(info(*type).flag) + " and the text");
    dataset data = make_dataset(*type, count);
    std::visit(
        [&](auto& v) {
            using T = typename std::decay_t<decltype(v)>::value_type;
            const std::string tname(info(*type).flag);
            std::size_t i = 0;
            for_each_value_line(text, [&](std::size_t line, std::string_view s) {
                const auto p = parse_number<T>(s);
                const std::string where = name + ":" + std::to_string(line) + ": ";
                if (p.status == parse_status::out_of_range)
                    throw input_error(where + quoted(s) + " is out of range for " + tname +
                                      (inferred ? "; pass --format-in text --type f64 (or u64)" : ""));
                if (p.status != parse_status::ok)
                    throw input_error(where + quoted(s) + " is not " + (inferred ? "a number" : "a valid " + tname));
                v[i++] = p.value;
            });
        },
        data);
    return data;
}

} // namespace preduce_cli
