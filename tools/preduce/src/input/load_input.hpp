#pragma once
// Where the values come from: a file in one of three formats, or a seeded generator.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "input/dataset.hpp"
#include "input/element_type.hpp"

namespace preduce_cli {

// automatic: the format follows the file name's extension (format_from_name). An
// explicit --format-in always wins.
enum class input_format { automatic, npy, raw, text };

// .npy means npy; .txt and .csv mean text (parsed as --type when given, else int64 or
// float64 by what the lines hold); any other name means raw binary, which needs --type.
// The extension is compared without regard to case. Never returns automatic.
input_format format_from_name(const std::string& path);

struct loaded_input {
    dataset data;
    input_format format;               // the one actually used
    std::vector<std::uint64_t> shape;  // a .npy's own shape; (n) for raw and text
};

loaded_input load_input(const std::string& path, input_format format, std::optional<element_type> type);

const char* format_name(input_format f);

// The element type of d as preduce names it ("float32", "int64", ...), for messages and reports.
std::string type_text(const dataset& d);

// n values of type t from std::mt19937_64(seed), mapped by hand rather than through
// std::uniform_*_distribution, whose output differs between standard libraries: the
// same seed must give the same data (and the same sums) everywhere.
dataset generate_data(element_type t, std::uint64_t n, std::uint64_t seed);

// Throws input_error if `copies` arrays of n values of type t exceed physical memory:
// vector<T>(n) touches every page, so an --n beyond it would not fail with bad_alloc
// but get the process killed by the kernel. generate_data checks one copy.
void check_fits_in_memory(element_type t, std::uint64_t n, std::uint64_t copies = 1);

// "uniform in [-1, 1)" and the like, for the report header.
const char* generated_distribution(element_type t);

} // namespace preduce_cli
