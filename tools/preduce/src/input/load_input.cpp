#include "input/load_input.hpp"

#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <system_error>
#include <type_traits>
#include <utility>
#include <variant>

#include <preduce/detail/core/type_name.hpp>

#include "cli_error.hpp"
#include "input/memory_budget.hpp"
#include "input/readers.hpp"

namespace preduce_cli {
namespace {

loaded_input one_dimensional(dataset d, input_format format) {
    const std::uint64_t n = size_of(d);
    return {std::move(d), format, {n}};
}

} // namespace

const char* format_name(input_format f) {
    switch (f) {
    case input_format::automatic: return "auto";
    case input_format::npy: return "npy";
    case input_format::raw: return "raw";
    case input_format::text: return "text";
    }
    return "?";
}

input_format format_from_name(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    for (char& c : ext)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (ext == ".npy") return input_format::npy;
    if (ext == ".txt" || ext == ".csv") return input_format::text;
    return input_format::raw;
}

loaded_input load_input(const std::string& path, input_format format, std::optional<element_type> type) {
    namespace fs = std::filesystem;
    const bool guessed = format == input_format::automatic;
    if (guessed) format = format_from_name(path);

    std::error_code ec;
    const auto st = fs::status(path, ec);
    if (ec || !fs::exists(st)) throw input_error(path + ": " + (ec ? ec.message() : "no such file"));
    if (fs::is_directory(st)) throw input_error(path + ": is a directory, not a file");
    if (!fs::is_regular_file(st)) throw input_error(path + ": not a regular file");
    const std::uint64_t size = fs::file_size(path, ec);
    if (ec) throw input_error(path + ": cannot read its size: " + ec.message());
    std::ifstream in(path, std::ios::binary);
    if (!in) throw input_error(path + ": cannot open the file (permissions?)");
    // Checked after the file itself, so a missing or special file is named as such.
    if (format == input_format::raw && !type)
        throw input_error(path + ": raw input needs --type (" + element_type_names() + ") to know what the bytes are" +
                          (guessed ? "; a name ending in .txt or .csv (or --format-in text) reads text" : ""));

    switch (format) {
    case input_format::npy: {
        npy_contents c = read_npy_shaped(in, size, path);
        if (type && *type != type_of(c.data))
            throw input_error(path + ": --type " + std::string(info(*type).flag) + " disagrees with the file's dtype (" +
                              std::string(info(type_of(c.data)).flag) + "); drop --type for .npy files");
        return {std::move(c.data), format, std::move(c.shape)};
    }
    case input_format::raw: return one_dimensional(read_raw(in, size, path, *type), format);
    case input_format::text: return one_dimensional(read_text(in, size, path, type), format);
    case input_format::automatic: break;
    }
    throw input_error("internal: no input format chosen");
}

const char* generated_distribution(element_type t) {
    switch (t) {
    case element_type::f32:
    case element_type::f64: return "uniform in [-1, 1), never 0";
    case element_type::f16: return "uniform in [-1, 1) rounded to float16, never 0";
    case element_type::bf16: return "uniform in [-1, 1) rounded to bfloat16, never 0";
    case element_type::i8:
    case element_type::i16:
    case element_type::i32:
    case element_type::i64: return "uniform integers in [-100, 100]";
    case element_type::u8:
    case element_type::u16:
    case element_type::u32:
    case element_type::u64: return "uniform integers in [0, 100]";
    }
    return "?";
}

void check_fits_in_memory(element_type t, std::uint64_t n, std::uint64_t copies) {
    const std::uint64_t size = info(t).size * (copies == 0 ? 1 : copies);
    const std::uint64_t limit = physical_memory();
    if (n > limit / size)
        throw input_error("--n " + std::to_string(n) + " values of " + std::string(info(t).flag) +
                          (copies > 1 ? " (" + std::to_string(copies) + " inputs)" : std::string()) +
                          " need more memory than this machine has (" + std::to_string(limit >> 20) + " MiB)");
}

dataset generate_data(element_type t, std::uint64_t n, std::uint64_t seed) {
    check_fits_in_memory(t, n);
    dataset data = make_dataset(t, static_cast<std::size_t>(n));
    std::mt19937_64 rng(seed);
    std::visit(
        [&](auto& v) {
            using T = typename std::decay_t<decltype(v)>::value_type;
            for (auto& x : v) {
                if constexpr (is_half_v<T>) {
                    // A float drawn as below, rounded to the type; redrawn when that gives 0
                    // (a tiny draw) or 1 (a draw within half an ulp of it), to stay in [-1, 1).
                    constexpr int p = std::numeric_limits<float>::digits;
                    float w = 0;
                    do {
                        const float u = static_cast<float>(rng() >> (64 - p)) * (1.0f / static_cast<float>(1u << p));
                        if constexpr (std::is_same_v<T, preduce::float16>) x = preduce::to_float16(2.0f * u - 1.0f);
                        else x = preduce::to_bfloat16(2.0f * u - 1.0f);
                        w = preduce::to_float(x);
                    } while (w == 0.0f || w == 1.0f);
                } else if constexpr (std::is_floating_point_v<T>) {
                    // The top significand-width bits give k/2^p in [0, 1) exactly; 2u - 1 is
                    // then exact too. Zero is redrawn: a zero would hide nothing but would
                    // make prod and the relative errors of tiny inputs meaningless.
                    constexpr int p = std::numeric_limits<T>::digits;
                    do {
                        const T u = static_cast<T>(rng() >> (64 - p)) * (T(1) / static_cast<T>(std::uint64_t(1) << p));
                        x = T(2) * u - T(1);
                    } while (x == T(0));
                } else if constexpr (std::is_signed_v<T>) {
                    x = static_cast<T>(static_cast<std::int64_t>(rng() % 201) - 100);
                } else {
                    x = static_cast<T>(rng() % 101);
                }
            }
        },
        data);
    return data;
}

std::string type_text(const dataset& d) {
    return std::visit(
        [](const auto& v) {
            using T = typename std::decay_t<decltype(v)>::value_type;
            return std::string(preduce::detail::type_name<T>());
        },
        d);
}

} // namespace preduce_cli
