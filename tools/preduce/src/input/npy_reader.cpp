// The .npy reader. The header is a Python dict literal; rather than evaluate Python we
// accept the small grammar NumPy writes ({'descr': '<f4', 'fortran_order': False,
// 'shape': (3,), }) and refuse everything else. Every index is checked against the
// bytes actually present: this parser sees fuzzed and corrupt files.
#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "input/byte_order.hpp"
#include "input/memory_budget.hpp"
#include "input/readers.hpp"

namespace preduce_cli {
namespace {

constexpr std::string_view magic{"\x93NUMPY", 6};
constexpr std::size_t max_dims = 64;  // NumPy's own limit (NPY_MAXDIMS)

struct npy_dtype {
    std::string_view code;  // without the byte-order character
    element_type type;
    bool is_bool;
};

// Every type is read as itself, in its own width; byte order '<' or '>' (or '=', the
// host's) for multi-byte types, '|' (or any of those) for the 1-byte ones.
constexpr std::array<npy_dtype, 12> dtypes{{
    {"i4", element_type::i32, false},
    {"u4", element_type::u32, false},
    {"i8", element_type::i64, false},
    {"u8", element_type::u64, false},
    {"f4", element_type::f32, false},
    {"f8", element_type::f64, false},
    {"i1", element_type::i8, false},
    {"u1", element_type::u8, false},
    {"i2", element_type::i16, false},
    {"u2", element_type::u16, false},
    {"f2", element_type::f16, false},
    // bool: one byte each, read as uint8 with any non-zero byte counted as 1, so that
    // sum counts the true values (in uint64).
    {"b1", element_type::u8, true},
}};

// "<i4 <u4 ... |b1", for the message naming what is supported.
std::string supported_dtypes() {
    std::string out;
    for (const auto& d : dtypes)
        out += (out.empty() ? "" : " ") + std::string(info(d.type).size == 1 ? "|" : "<") + std::string(d.code);
    return out;
}

std::string shorten(std::string_view s) {
    return s.size() <= 24 ? std::string(s) : std::string(s.substr(0, 24)) + "...";
}

// A cursor over the header text; every read goes through peek(), which knows the end.
class header_parser {
public:
    header_parser(std::string_view text, const std::string& name) : text_(text), name_(name) {}

    [[noreturn]] void fail(const std::string& what) const {
        throw input_error(name_ + ": malformed .npy header at offset " + std::to_string(pos_) + ": " + what);
    }
    char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
    bool at_end() const { return pos_ >= text_.size(); }
    void skip_space() {
        while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) ++pos_;
    }
    bool accept(char c) {
        skip_space();
        if (at_end() || peek() != c) return false;
        ++pos_;
        return true;
    }
    void expect(char c) {
        if (!accept(c)) fail(std::string("expected '") + c + "'");
    }
    bool accept_word(std::string_view w) {
        skip_space();
        if (text_.substr(pos_, w.size()) != w) return false;
        pos_ += w.size();
        return true;
    }

    std::string string_literal() {
        skip_space();
        const char quote = peek();
        if (quote != '\'' && quote != '"') fail("expected a quoted string");
        const std::size_t start = ++pos_;
        while (!at_end() && peek() != quote) {
            if (peek() == '\\') fail("escape sequences are not supported");
            ++pos_;
        }
        if (at_end()) fail("unterminated string");
        return std::string(text_.substr(start, pos_++ - start));
    }

    bool boolean() {
        if (accept_word("True")) return true;
        if (accept_word("False")) return false;
        fail("expected True or False");
    }

    // (d0, d1, ...) of non-negative integers; "(3)" is accepted as well as "(3,)".
    std::vector<std::uint64_t> shape() {
        expect('(');
        std::vector<std::uint64_t> dims;
        while (!accept(')')) {
            if (!dims.empty()) {
                expect(',');
                if (accept(')')) break;  // trailing comma
            }
            if (dims.size() == max_dims) fail("more than " + std::to_string(max_dims) + " dimensions");
            dims.push_back(dimension());
        }
        return dims;
    }

    std::uint64_t dimension() {
        skip_space();
        if (peek() < '0' || peek() > '9') fail("expected a non-negative integer in shape");
        std::uint64_t v = 0;
        while (peek() >= '0' && peek() <= '9') {
            const auto digit = static_cast<std::uint64_t>(peek() - '0');
            if (v > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) fail("shape dimension overflows 64 bits");
            v = v * 10 + digit;
            ++pos_;
        }
        if (peek() == 'L') ++pos_;  // Python 2 long literal, found in old files
        return v;
    }

private:
    std::string_view text_;
    const std::string& name_;
    std::size_t pos_ = 0;
};

struct dtype_choice {
    const npy_dtype* dtype;
    bool big_endian;  // the file's values are big-endian
};

dtype_choice lookup_dtype(const std::string& descr, const std::string& name) {
    const std::string shown = "'" + shorten(descr) + "'";
    if (descr.size() >= 2) {
        const char order = descr[0];
        const std::string_view code = std::string_view(descr).substr(1);
        for (const auto& d : dtypes) {
            if (code != d.code) continue;
            if (info(d.type).size == 1 && (order == '|' || order == '<' || order == '>' || order == '=')) return {&d, false};
            if (order == '<') return {&d, false};
            if (order == '>') return {&d, true};
            if (order == '=') return {&d, std::endian::native == std::endian::big};
            throw input_error(name + ": dtype " + shown + " has no byte order; only 1-byte types may use '|'");
        }
        if (code.starts_with('O'))  // "O", and "O8" in old files
            throw input_error(name + ": object arrays (dtype " + shown + ") hold Python objects, not numbers");
    }
    throw input_error(name + ": unsupported dtype " + shown + "; supported: " + supported_dtypes() +
                      " (multi-byte types in either byte order, '<' or '>')");
}

std::uint64_t read_le(std::string_view bytes, std::size_t at, std::size_t width) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < width; ++i)
        v |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
    return v;
}

} // namespace

npy_header parse_npy_header(std::string_view prefix, std::uint64_t size, const std::string& name) {
    if (size == 0) throw input_error(name + ": file is empty");
    const std::size_t seen = std::min(prefix.size(), magic.size());
    if (prefix.substr(0, seen) != magic.substr(0, seen))
        throw input_error(name + ": not a .npy file (it does not start with \\x93NUMPY)");
    if (prefix.size() < 10)
        throw input_error(name + ": truncated .npy file (" + std::to_string(size) + " bytes, shorter than the preamble)");

    const int major = static_cast<unsigned char>(prefix[6]);
    const int minor = static_cast<unsigned char>(prefix[7]);
    if (major < 1 || major > 3 || minor != 0)
        throw input_error(name + ": unsupported .npy format version " + std::to_string(major) + "." +
                          std::to_string(minor) + " (known: 1.0, 2.0, 3.0)");
    const std::size_t len_width = major == 1 ? 2 : 4;
    const std::size_t preamble = 8 + len_width;
    if (prefix.size() < preamble) throw input_error(name + ": truncated .npy file (the header length is cut off)");
    const std::uint64_t header_len = read_le(prefix, 8, len_width);
    if (header_len > npy_max_header)
        throw input_error(name + ": .npy header length " + std::to_string(header_len) + " is absurd (limit " +
                          std::to_string(npy_max_header) + " bytes); the file is corrupt");
    if (preamble + header_len > prefix.size())
        throw input_error(name + ": truncated .npy file (the header claims " + std::to_string(header_len) +
                          " bytes, only " + std::to_string(prefix.size() - preamble) + " follow)");

    header_parser p(prefix.substr(preamble, static_cast<std::size_t>(header_len)), name);
    std::optional<std::string> descr;
    std::optional<bool> fortran_order;
    std::optional<std::vector<std::uint64_t>> shape;
    p.expect('{');
    while (!p.accept('}')) {
        if (descr || fortran_order || shape) {
            p.expect(',');
            if (p.accept('}')) break;  // trailing comma, as NumPy writes it
        }
        const std::string key = p.string_literal();
        p.expect(':');
        if (key == "descr" && !descr) {
            p.skip_space();
            if (p.peek() == '[') throw input_error(name + ": structured dtypes (a list as 'descr') are not supported");
            descr = p.string_literal();
        } else if (key == "fortran_order" && !fortran_order) {
            fortran_order = p.boolean();
        } else if (key == "shape" && !shape) {
            shape = p.shape();
        } else {
            p.fail("unexpected or repeated key '" + shorten(key) + "'");
        }
    }
    p.skip_space();
    if (!p.at_end()) p.fail("unexpected text after the closing '}'");
    if (!descr || !fortran_order || !shape) p.fail("the keys 'descr', 'fortran_order' and 'shape' are all required");

    const dtype_choice choice = lookup_dtype(*descr, name);
    const npy_dtype& dt = *choice.dtype;
    const std::size_t stored_size = info(dt.type).size;
    // 1-D Fortran order is the same memory as C order; more dimensions would make the
    // flattened order, and so every argmin/argmax index, differ from NumPy's.
    if (*fortran_order && shape->size() > 1)
        throw input_error(name + ": fortran_order arrays with more than one dimension are not supported; save "
                          "np.ascontiguousarray(a) instead");

    std::uint64_t count = 1;
    bool has_zero = false;
    for (auto d : *shape) has_zero = has_zero || d == 0;
    if (has_zero) count = 0;
    else
        for (auto d : *shape) {
            if (count > std::numeric_limits<std::uint64_t>::max() / d)
                throw input_error(name + ": .npy shape has more elements than 2^64; the file is corrupt");
            count *= d;
        }

    const std::uint64_t offset = preamble + header_len;
    const std::uint64_t available = size - offset;  // offset <= prefix.size() <= size
    if (count > available / stored_size)
        throw input_error(name + ": truncated .npy data (the shape needs " + std::to_string(count) + " elements of " +
                          std::to_string(stored_size) + " bytes, only " + std::to_string(available) +
                          " bytes follow the header)");
    if (count * stored_size != available)
        throw input_error(name + ": " + std::to_string(available - count * stored_size) +
                          " unexpected bytes after the .npy data; the file is corrupt");
    return {*descr, dt.type, choice.big_endian, dt.is_bool, count, offset, std::move(*shape)};
}

npy_contents read_npy_shaped(std::istream& in, std::uint64_t size, const std::string& name) {
    std::string prefix(static_cast<std::size_t>(size < npy_max_prefix ? size : npy_max_prefix), '\0');
    read_exact(in, prefix.data(), prefix.size(), name);
    const npy_header h = parse_npy_header(prefix, size, name);

    const std::size_t width = info(h.type).size;
    require_memory(h.count, width, name + ": " + std::to_string(h.count) + " values of " + std::string(info(h.type).flag));
    in.clear();
    in.seekg(static_cast<std::streamoff>(h.data_offset));
    if (!in) throw input_error(name + ": cannot seek to the .npy data");
    dataset data = make_dataset(h.type, static_cast<std::size_t>(h.count));
    std::visit(
        [&](auto& v) {
            using T = typename std::decay_t<decltype(v)>::value_type;
            read_exact(in, v.data(), h.count * sizeof(T), name);
            if (h.big_endian) big_endian_to_host(v.data(), v.size());
            else little_endian_to_host(v.data(), v.size());
            if constexpr (std::is_same_v<T, std::uint8_t>)
                if (h.is_bool)
                    for (auto& x : v) x = static_cast<std::uint8_t>(x != 0);
        },
        data);
    return {std::move(data), h.shape};
}

dataset read_npy(std::istream& in, std::uint64_t size, const std::string& name) {
    return read_npy_shaped(in, size, name).data;
}

} // namespace preduce_cli
