#include "output/report_format.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <variant>

#include <fmt/format.h>

namespace preduce_cli {

std::string scalar_text(const scalar& v) {
    return std::visit(
        [](auto x) {
            // A float16 or bfloat16 as the double of its exact value: the shortest text of that
            // double reads back as the same 16-bit value.
            if constexpr (is_half_v<decltype(x)>) return fmt::format("{}", static_cast<double>(numeric(x)));
            else return fmt::format("{}", x);
        },
        v);
}

bool index_is_none(const result_value& r) { return r.index && *r.index == preduce::no_index; }

std::string index_text(const result_value& r) {
    if (!r.index) return "";
    return index_is_none(r) ? "none" : fmt::format("{}", *r.index);
}

std::string value_text(const result_value& r) {
    if (index_is_none(r)) return "none";  // the identity of an empty argmin is not a value
    return scalar_text(r.value);
}

nlohmann::ordered_json json_number(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return v;
}

nlohmann::ordered_json json_value(const scalar& value) {
    return std::visit(
        [](auto v) -> nlohmann::ordered_json {
            if constexpr (is_floating_v<decltype(v)>) return json_number(static_cast<double>(numeric(v)));
            else return v;
        },
        value);
}

std::optional<double> gbps(const run_summary& s, const backend_result& r) {
    if (s.bytes == 0 || r.median_s <= 0) return std::nullopt;
    return static_cast<double>(s.bytes) / r.median_s / 1e9;
}

std::optional<double> speedup(const run_summary& s, const backend_result& r) {
    for (const auto& base : s.results)
        if (base.backend == preduce::backend::seq && r.median_s > 0) return base.median_s / r.median_s;
    return std::nullopt;
}

nlohmann::ordered_json json_record_head(const run_summary& s, const backend_result& r) {
    nlohmann::ordered_json rec{{"backend", std::string(preduce::name(r.backend))}, {"label", r.label}, {"op", s.op.name}};
    if (!s.op.pred_spec.empty()) rec["pred"] = s.op.pred_spec;
    rec["type"] = s.type_name;
    rec["n"] = s.n;
    return rec;
}

void add_json_timing(nlohmann::ordered_json& rec, const run_summary& s, const backend_result& r) {
    rec["time_s"] = r.median_s;
    const auto g = gbps(s, r);
    rec["gbps"] = g ? nlohmann::ordered_json(*g) : nlohmann::ordered_json(nullptr);
    if (const auto x = speedup(s, r)) rec["speedup"] = *x;
}

namespace {
// Three significant digits without switching to exponent notation.
std::string fixed3(double v) { return fmt::format("{:.{}f}", v, v < 10 ? 2 : v < 100 ? 1 : 0); }
} // namespace

std::string time_text(double s) {
    if (s < 1e-6) return fixed3(s * 1e9) + " ns";
    if (s < 1e-3) return fixed3(s * 1e6) + " us";
    if (s < 1) return fixed3(s * 1e3) + " ms";
    return fixed3(s) + " s";
}

std::string bytes_text(std::uint64_t b) {
    if (b >= (1u << 30)) return fmt::format("{:.1f} GiB", static_cast<double>(b) / (1u << 30));
    if (b >= (1u << 20)) return fmt::format("{:.1f} MiB", static_cast<double>(b) / (1u << 20));
    if (b >= (1u << 10)) return fmt::format("{:.1f} KiB", static_cast<double>(b) / (1u << 10));
    return fmt::format("{} bytes", b);
}

std::string csv_cell(const std::string& v) {
    if (v.find_first_of(",\"\n") == std::string::npos) return v;
    std::string out = "\"";
    for (char c : v) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string csv_line(const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) line += (i ? "," : "") + csv_cell(cells[i]);
    return line;
}

void print_aligned(const std::vector<std::vector<std::string>>& rows) {
    std::vector<std::size_t> width;
    for (const auto& row : rows) {
        width.resize(std::max(width.size(), row.size()), 0);
        for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
        std::string line;
        for (std::size_t c = 0; c < rows[i].size(); ++c)
            line += c == 0 ? fmt::format("{:<{}}", rows[i][c], width[c]) : fmt::format("  {:>{}}", rows[i][c], width[c]);
        fmt::print("{}\n", line);
        if (i == 0) {
            std::string rule;
            for (std::size_t c = 0; c < width.size(); ++c) rule += (c ? "  " : "") + std::string(width[c], '-');
            fmt::print("{}\n", rule);
        }
    }
}

} // namespace preduce_cli
