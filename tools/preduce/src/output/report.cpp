#include "output/report.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "output/report_format.hpp"

namespace preduce_cli {
namespace {

// The table's result columns for each shape of result, and one result's cells under them.
std::vector<std::string> result_headers(result_shape shape) {
    switch (shape) {
    case result_shape::scalar: return {"result"};
    case result_shape::arg: return {"result", "index"};
    case result_shape::minmax: return {"min", "max"};
    case result_shape::moments: return {"count", "mean", "variance"};
    }
    return {};
}

void print_table(const run_summary& s, const std::string& source, int repeat) {
    fmt::print("{} of {} {}{} ({}), {}\n", s.op.label, s.n, s.type_name, s.op.is_binary() ? " pairs" : "",
               bytes_text(s.bytes), source);
    if (s.reference)
        fmt::print("exact {} {} (Shewchuk); error = result - exact; bound = {} = {:.3g} ({})\n", s.reference->what,
                   s.reference->exact, s.reference->formula, s.reference->bound, s.reference->source);
    if (s.bit_identical)
        fmt::print("precision: {}; bit-identical across backends: {}\n", preduce::name(s.precision),
                   *s.bit_identical ? "yes" : "no");
    fmt::print("time: median of {} run{} after one warm-up\n\n", repeat, repeat == 1 ? "" : "s");

    const result_shape shape = s.op.shape();
    const bool with_error = s.reference.has_value();
    // float16 and bfloat16 results (min, max, ...): their 16-bit patterns.
    const bool with_half_bits = !with_error && std::any_of(s.results.begin(), s.results.end(), [&](const auto& r) {
        return half_bits(shape, r.result).has_value();
    });
    const bool with_speedup = std::any_of(s.results.begin(), s.results.end(),
                                          [](const auto& r) { return r.backend == preduce::backend::seq; });
    std::vector<std::string> header{"backend"};
    for (auto& h : result_headers(shape)) header.push_back(std::move(h));
    if (with_error) header.insert(header.end(), {"bits", "error", "error/bound"});
    if (with_half_bits) header.push_back("bits");
    header.insert(header.end(), {"median", "GB/s"});
    if (with_speedup) header.push_back("speed-up");

    std::vector<std::vector<std::string>> rows{header};
    for (const auto& r : s.results) {
        std::vector<std::string> row{r.label};
        for (auto& c : result_cells(shape, r.result)) row.push_back(std::move(c));
        if (with_error) {
            row.push_back(*r.bits);
            row.push_back(*r.error == 0 ? "0" : fmt::format("{:+.2e}", *r.error));
            row.push_back(s.reference->bound > 0 ? fmt::format("{:.1e}", std::fabs(*r.error) / s.reference->bound)
                                                 : "-");
        }
        if (with_half_bits) row.push_back(half_bits(shape, r.result).value_or("-"));
        row.push_back(time_text(r.median_s));
        const auto g = gbps(s, r);
        row.push_back(g ? fmt::format("{:.2f}", *g) : "-");
        if (with_speedup) {
            const auto x = speedup(s, r);
            row.push_back(x ? fmt::format("{:.2f}x", *x) : "-");
        }
        rows.push_back(std::move(row));
    }

    print_aligned(rows);
}

void print_json(const run_summary& s) {
    auto results = nlohmann::ordered_json::array();
    for (const auto& r : s.results) {
        nlohmann::ordered_json rec = json_record_head(s, r);
        rec["result"] = json_result(s.op.shape(), r.result);
        if (const auto bits = json_half_bits(s.op.shape(), r.result)) rec["bits"] = *bits;
        add_json_timing(rec, s, r);
        if (r.error) {
            rec["exact"] = json_number(s.reference->exact);
            rec["error"] = json_number(*r.error);
            rec["error_bound"] = json_number(s.reference->bound);
            rec["precision"] = preduce::name(s.precision);
            rec["bits"] = *r.bits;
            rec["bit_identical"] = *s.bit_identical;
        }
        results.push_back(std::move(rec));
    }
    fmt::print("{}\n", nlohmann::ordered_json{{"results", std::move(results)}}.dump(2));
}

void print_csv(const run_summary& s) {
    // Columns are only ever added at the end, so that scripts reading them by position
    // keep working.
    fmt::print("backend,label,op,pred,type,n,result,index,time_s,gbps,speedup,error,error_bound,"
               "min,max,count,mean,variance,precision,bits,bit_identical\n");
    const result_shape shape = s.op.shape();
    const bool whole = shape == result_shape::scalar || shape == result_shape::arg;  // fits in result/index
    for (const auto& r : s.results) {
        const auto g = gbps(s, r);
        const auto x = speedup(s, r);
        const std::vector<std::string> row{
            std::string(preduce::name(r.backend)),
            r.label,
            s.op.name,
            s.op.pred_spec,
            s.type_name,
            fmt::format("{}", s.n),
            whole ? value_text(r.result) : "",
            whole ? index_text(r.result) : "",
            fmt::format("{}", r.median_s),
            g ? fmt::format("{}", *g) : "",
            x ? fmt::format("{}", *x) : "",
            r.error ? fmt::format("{}", *r.error) : "",
            r.error ? fmt::format("{}", s.reference->bound) : "",
            r.result.min ? scalar_text(*r.result.min) : "",
            r.result.max ? scalar_text(*r.result.max) : "",
            r.result.moments ? fmt::format("{}", r.result.moments->count) : "",
            r.result.moments ? fmt::format("{}", r.result.moments->mean) : "",
            r.result.moments ? fmt::format("{}", r.result.moments->variance()) : "",
            r.bits ? std::string(preduce::name(s.precision)) : "",
            r.bits ? *r.bits : half_bits(shape, r.result).value_or(""),
            r.bits ? std::string(*s.bit_identical ? "yes" : "no") : "",
        };
        fmt::print("{}\n", csv_line(row));
    }
}

} // namespace

void print_report(const run_summary& summary, output_format format, const std::string& source, int repeat) {
    if (summary.segmented) {
        print_segmented_report(summary, format, source, repeat);
        return;
    }
    switch (format) {
    case output_format::table: print_table(summary, source, repeat); break;
    case output_format::json: print_json(summary); break;
    case output_format::csv: print_csv(summary); break;
    }
}

nlohmann::ordered_json json_result(result_shape shape, const result_value& r) {
    switch (shape) {
    case result_shape::scalar: break;
    case result_shape::arg: {
        const bool none = index_is_none(r);
        return {{"value", none ? nlohmann::ordered_json(nullptr) : json_value(r.value)},
                {"index", none ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(*r.index)}};
    }
    case result_shape::minmax: return {{"min", json_value(*r.min)}, {"max", json_value(*r.max)}};
    case result_shape::moments:
        return {{"count", r.moments->count},
                {"mean", json_number(r.moments->mean)},
                {"variance", json_number(r.moments->variance())},
                {"sample_variance", json_number(r.moments->sample_variance())}};
    }
    return json_value(r.value);
}

std::optional<nlohmann::ordered_json> json_half_bits(result_shape shape, const result_value& r) {
    if (!half_bits(shape, r)) return std::nullopt;
    if (shape == result_shape::minmax) return nlohmann::ordered_json{{"min", bits_text(*r.min)}, {"max", bits_text(*r.max)}};
    return nlohmann::ordered_json(bits_text(r.value));
}

std::vector<std::string> result_cells(result_shape shape, const result_value& r) {
    switch (shape) {
    case result_shape::scalar: return {value_text(r)};
    case result_shape::arg: return {value_text(r), index_text(r)};
    case result_shape::minmax: return {scalar_text(*r.min), scalar_text(*r.max)};
    case result_shape::moments:
        return {fmt::format("{}", r.moments->count), fmt::format("{}", r.moments->mean),
                fmt::format("{}", r.moments->variance())};
    }
    return {};
}

} // namespace preduce_cli
