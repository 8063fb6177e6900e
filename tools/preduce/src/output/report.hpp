#pragma once
// The three output formats of a run: an aligned table for people, JSON and CSV for
// scripts. All write to stdout; nothing but the report goes there.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands/measure.hpp"

namespace preduce_cli {

enum class output_format { table, json, csv };

// One result as the table's cells (result and index, min and max, or count, mean and variance).
std::vector<std::string> result_cells(result_shape shape, const result_value& r);

// One result in the JSON shape of the report's "result" (NaN and infinities as strings).
nlohmann::ordered_json json_result(result_shape shape, const result_value& r);

// The "bits" of a float16 or bfloat16 result beside it: "0x3c00", or {"min": ..., "max": ...}
// for minmax; nothing for other types (half_bits in measure.hpp).
std::optional<nlohmann::ordered_json> json_half_bits(result_shape shape, const result_value& r);

// `source` says where the data came from, e.g. "read from x.npy (npy)"; the table
// prints it, JSON and CSV leave it out (the caller knows what it passed).
void print_report(const run_summary& summary, output_format format, const std::string& source, int repeat);

// The report of a run with many results per call (summary.segmented set; report_segments.cpp).
void print_segmented_report(const run_summary& summary, output_format format, const std::string& source, int repeat);

} // namespace preduce_cli
