#pragma once
// The pieces every report is made of: numbers as text and as JSON, times, rates, CSV cells
// and aligned table rows (report.cpp, report_segments.cpp).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands/measure.hpp"

namespace preduce_cli {

// Shortest text that reads back as the same value ({fmt}'s default), "nan"/"inf" included.
std::string scalar_text(const scalar& v);

// argmin/argmax of an empty input (or segment) have an index of none and no value.
bool index_is_none(const result_value& r);
std::string index_text(const result_value& r);  // "" unless argmin/argmax; "none" when empty
std::string value_text(const result_value& r);  // scalar_text, or "none" for an empty argmin/argmax

// JSON has no NaN or infinity; they become the strings "nan", "inf", "-inf".
nlohmann::ordered_json json_number(double v);
nlohmann::ordered_json json_value(const scalar& value);

// GB/s read, and the speed-up over seq when seq ran.
std::optional<double> gbps(const run_summary& s, const backend_result& r);
std::optional<double> speedup(const run_summary& s, const backend_result& r);

// The fields every JSON record starts with (backend, label, op, pred for count_if, type, n),
// and its timing fields (time_s, gbps, speedup where seq ran).
nlohmann::ordered_json json_record_head(const run_summary& s, const backend_result& r);
void add_json_timing(nlohmann::ordered_json& rec, const run_summary& s, const backend_result& r);

std::string time_text(double seconds);      // "1.23 ms"
std::string bytes_text(std::uint64_t b);    // "64.0 MiB"

// A CSV cell, quoted when it holds a comma, a quote or a newline; and a row of them.
std::string csv_cell(const std::string& v);
std::string csv_line(const std::vector<std::string>& cells);

// Prints rows[0] as the header, a dashed rule, then the other rows: the first column left-
// aligned, the others right-aligned, so that digits line up.
void print_aligned(const std::vector<std::vector<std::string>>& rows);

} // namespace preduce_cli
