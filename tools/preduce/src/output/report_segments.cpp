// The report of the many-results modes (--axis, --segments, --segment-size, --keys): per
// backend the number of results, the first and last few, and SHA-256 hashes of all of them,
// with the same timing columns as a whole-array run.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "output/report.hpp"
#include "output/report_format.hpp"

namespace preduce_cli {
namespace {

// One result in a few characters: "1.5"; argmin/argmax "value@index" ("none" for an empty
// segment); minmax "min/max"; moments "count/mean/variance".
std::string compact_text(result_shape shape, const result_value& r) {
    switch (shape) {
    case result_shape::scalar: break;
    case result_shape::arg: return index_is_none(r) ? "none" : value_text(r) + "@" + index_text(r);
    case result_shape::minmax: return scalar_text(*r.min) + "/" + scalar_text(*r.max);
    case result_shape::moments:
        return fmt::format("{}/{}/{}", r.moments->count, r.moments->mean, r.moments->variance());
    }
    return value_text(r);
}

std::string joined(result_shape shape, const std::vector<result_value>& values) {
    std::vector<std::string> parts;
    for (const auto& v : values) parts.push_back(compact_text(shape, v));
    return fmt::format("{}", fmt::join(parts, " "));
}

std::string joined(const std::vector<scalar>& keys) {
    std::vector<std::string> parts;
    for (const auto& k : keys) parts.push_back(scalar_text(k));
    return fmt::format("{}", fmt::join(parts, " "));
}

// "a b c ... x y z" when some results are not shown, "a b c d" when all are.
std::string preview(const std::string& first, const std::string& last, std::uint64_t count) {
    if (last.empty()) return first;
    return first + (count > 6 ? " ... " : " ") + last;
}

bool with_speedup(const run_summary& s) {
    return std::any_of(s.results.begin(), s.results.end(), [](const auto& r) { return r.backend == preduce::backend::seq; });
}

void print_table(const run_summary& s, const std::string& source, int repeat) {
    const segmented_run& mode = *s.segmented;
    fmt::print("{} of {} {}{} ({}{}) {}, {}\n", s.op.label, s.n, s.type_name, s.op.is_binary() ? " pairs" : "",
               bytes_text(s.bytes), mode.mode == "keys" ? " with the keys" : "", mode.description, source);
    fmt::print("precision: {}; identical across backends (SHA-256 of the results): {}\n", preduce::name(s.precision),
               *s.identical ? "yes" : "no");
    fmt::print("time: median of {} run{} after one warm-up\n\n", repeat, repeat == 1 ? "" : "s");

    const result_shape shape = s.op.shape();
    const bool keys = mode.mode == "keys";
    std::vector<std::string> header{"backend", "results"};
    if (keys) header.push_back("keys");
    header.insert(header.end(), {"values", "sha256", "median", "GB/s"});
    if (with_speedup(s)) header.push_back("speed-up");
    std::vector<std::vector<std::string>> rows{header};
    for (const auto& r : s.results) {
        const many_results& m = *r.many;
        std::vector<std::string> row{r.label, fmt::format("{}", m.count)};
        if (keys) row.push_back(preview(joined(m.first_keys), joined(m.last_keys), m.count));
        row.push_back(preview(joined(shape, m.first), joined(shape, m.last), m.count));
        row.push_back(m.sha256);
        row.push_back(time_text(r.median_s));
        const auto g = gbps(s, r);
        row.push_back(g ? fmt::format("{:.2f}", *g) : "-");
        if (with_speedup(s)) {
            const auto x = speedup(s, r);
            row.push_back(x ? fmt::format("{:.2f}x", *x) : "-");
        }
        rows.push_back(std::move(row));
    }
    print_aligned(rows);
}

nlohmann::ordered_json json_list(result_shape shape, const std::vector<result_value>& values) {
    auto out = nlohmann::ordered_json::array();
    for (const auto& v : values) out.push_back(json_result(shape, v));
    return out;
}

nlohmann::ordered_json json_list(const std::vector<scalar>& keys) {
    auto out = nlohmann::ordered_json::array();
    for (const auto& k : keys) out.push_back(json_value(k));
    return out;
}

void print_json(const run_summary& s) {
    const segmented_run& mode = *s.segmented;
    const result_shape shape = s.op.shape();
    auto results = nlohmann::ordered_json::array();
    for (const auto& r : s.results) {
        const many_results& m = *r.many;
        nlohmann::ordered_json rec = json_record_head(s, r);
        rec["mode"] = mode.mode;
        if (mode.mode == "axis") {
            rec["shape"] = mode.shape;
            rec["axes"] = mode.axes;
            rec["result_shape"] = mode.result_shape;
        }
        if (mode.mode == "segment_size") rec["segment_size"] = mode.segment_size;
        if (mode.mode == "keys") rec["keys_type"] = mode.keys_type;
        rec["count"] = m.count;
        rec["first"] = json_list(shape, m.first);
        rec["last"] = json_list(shape, m.last);
        if (mode.mode == "keys") {
            rec["first_keys"] = json_list(m.first_keys);
            rec["last_keys"] = json_list(m.last_keys);
        }
        rec["sha256"] = m.sha256;
        if (m.index_sha256) rec["index_sha256"] = *m.index_sha256;
        if (m.keys_sha256) rec["keys_sha256"] = *m.keys_sha256;
        rec["identical"] = *s.identical;
        add_json_timing(rec, s, r);
        rec["precision"] = preduce::name(s.precision);
        results.push_back(std::move(rec));
    }
    fmt::print("{}\n", nlohmann::ordered_json{{"results", std::move(results)}}.dump(2));
}

void print_csv(const run_summary& s) {
    // Columns are only ever added at the end, so that scripts reading them by position
    // keep working.
    fmt::print("backend,label,op,pred,type,n,mode,count,first,last,sha256,index_sha256,first_keys,last_keys,"
               "keys_sha256,identical,time_s,gbps,speedup,precision\n");
    const result_shape shape = s.op.shape();
    for (const auto& r : s.results) {
        const many_results& m = *r.many;
        const auto g = gbps(s, r);
        const auto x = speedup(s, r);
        fmt::print("{}\n", csv_line({
                               std::string(preduce::name(r.backend)),
                               r.label,
                               s.op.name,
                               s.op.pred_spec,
                               s.type_name,
                               fmt::format("{}", s.n),
                               s.segmented->mode,
                               fmt::format("{}", m.count),
                               joined(shape, m.first),
                               joined(shape, m.last),
                               m.sha256,
                               m.index_sha256.value_or(""),
                               joined(m.first_keys),
                               joined(m.last_keys),
                               m.keys_sha256.value_or(""),
                               *s.identical ? "yes" : "no",
                               fmt::format("{}", r.median_s),
                               g ? fmt::format("{}", *g) : "",
                               x ? fmt::format("{}", *x) : "",
                               std::string(preduce::name(s.precision)),
                           }));
    }
}

} // namespace

void print_segmented_report(const run_summary& summary, output_format format, const std::string& source, int repeat) {
    switch (format) {
    case output_format::table: print_table(summary, source, repeat); break;
    case output_format::json: print_json(summary); break;
    case output_format::csv: print_csv(summary); break;
    }
}

} // namespace preduce_cli
