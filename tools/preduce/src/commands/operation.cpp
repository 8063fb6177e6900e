#include "commands/operation.hpp"

#include <algorithm>
#include <array>
#include <type_traits>
#include <utility>
#include <vector>

namespace preduce_cli {
namespace {

// The report's shape of a result type.
template <class Result>
constexpr result_shape shape_of() {
    if constexpr (requires(Result r) { r.index; }) return result_shape::arg;
    else if constexpr (requires(Result r) { r.min; r.max; }) return result_shape::minmax;
    else if constexpr (std::is_same_v<Result, preduce::moments_result>) return result_shape::moments;
    else return result_shape::scalar;
}

// An op's row, read off its reducer for float32 data (every element type has the same shape).
template <class Op>
using float_reducer_t = preduce::detail::resolved_t<
    std::conditional_t<std::is_same_v<Op, preduce::dot_op>, preduce::zip_value<float, float>, float>, Op>;

template <class Op>
op_info info_of(const Op& op, std::string_view name, std::string_view help) {
    using Result = std::remove_cvref_t<decltype(preduce::detail::project(
        op, std::declval<typename float_reducer_t<Op>::result_type>()))>;
    return {name, help, shape_of<Result>(), std::is_same_v<Op, preduce::dot_op>, false};
}
template <class Op>
op_info info_of(const Op& op) {
    return info_of(op, float_reducer_t<Op>::name, float_reducer_t<Op>::help);
}

struct predicate_info {
    std::string_view name;
    preduce::predicate_kind kind;
    int arity;
};

constexpr std::array<predicate_info, 8> predicates{{
    {"equal", preduce::predicate_kind::equal, 1},
    {"not_equal", preduce::predicate_kind::not_equal, 1},
    {"less", preduce::predicate_kind::less, 1},
    {"less_equal", preduce::predicate_kind::less_equal, 1},
    {"greater", preduce::predicate_kind::greater, 1},
    {"greater_equal", preduce::predicate_kind::greater_equal, 1},
    {"in_range", preduce::predicate_kind::in_range, 2},
    {"is_nan", preduce::predicate_kind::is_nan, 0},
}};

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || s[i] == sep) {
            parts.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    return parts;
}

predicate_text parse_predicate(const std::string& text) {
    const auto parts = split(text, ':');
    for (const auto& p : predicates) {
        if (parts[0] != p.name) continue;
        const int given = static_cast<int>(parts.size()) - 1;
        if (given != p.arity) {
            const std::string form = p.arity == 0 ? std::string(p.name)
                                     : p.arity == 1 ? std::string(p.name) + ":X"
                                                    : std::string(p.name) + ":LO:HI";
            throw usage_error("--pred '" + text + "': " + std::string(p.name) + " takes " + std::to_string(p.arity) +
                              " value" + (p.arity == 1 ? "" : "s") + ", write " + form);
        }
        predicate_text out{p.kind, given > 0 ? parts[1] : "", given > 1 ? parts[2] : ""};
        // A syntax check now, before any file is read; the exact type comes with the data.
        for (int i = 1; i <= given; ++i)
            if (parse_number<double>(parts[static_cast<std::size_t>(i)]).status == parse_status::malformed)
                throw usage_error("--pred '" + text + "': '" + parts[static_cast<std::size_t>(i)] +
                                  "' is not a number");
        return out;
    }
    std::string valid;
    for (const auto& p : predicates) valid += (valid.empty() ? "" : ", ") + std::string(p.name);
    throw usage_error("--pred '" + text + "': unknown predicate '" + parts[0] + "'; valid: " + valid);
}

} // namespace

const std::vector<op_info>& cli_operations() {
    static const std::vector<op_info> ops = [] {
        std::vector<op_info> v;
#define PREDUCE_CLI_PLAIN_INFO(id, ...) v.push_back(info_of(preduce::id));
        PREDUCE_FOR_EACH_PLAIN_OPERATION(PREDUCE_CLI_PLAIN_INFO)
#undef PREDUCE_CLI_PLAIN_INFO
        using count = preduce::count_reducer<float>;
        v.push_back({count::name, count::help, result_shape::scalar, false, true});
        v.push_back(info_of(preduce::dot));
        for (const op_info& o : {info_of(preduce::mean, preduce::mean_op::name, preduce::mean_op::help),
                                 info_of(preduce::variance, preduce::variance_op::name, preduce::variance_op::help),
                                 info_of(preduce::minmax, preduce::minmax_op::name, preduce::minmax_op::help)})
            v.push_back(o);
        return v;
    }();
    return ops;
}

operation parse_operation(const std::string& op, const std::optional<std::string>& pred) {
    operation out;
    const auto& ops = cli_operations();
    const auto found = std::find_if(ops.begin(), ops.end(), [&](const op_info& o) { return o.name == op; });
    if (found == ops.end()) {
        std::string valid;
        for (const auto& o : ops) valid += (valid.empty() ? "" : ", ") + std::string(o.name);
        throw usage_error("unknown --op '" + op + "'; valid: " + valid);
    }
    out.name = op;
    out.label = op;
    out.result = found->shape;
    out.binary = found->binary;
    if (found->predicate) {
        if (!pred) throw usage_error("--op count_if needs --pred, e.g. --pred greater:0.5 or --pred in_range:0:10");
        out.pred = parse_predicate(*pred);
        out.pred_spec = *pred;
        out.label = "count_if(" + *pred + ")";
    } else if (pred) {
        throw usage_error("--pred only applies to --op count_if");
    }
    return out;
}

} // namespace preduce_cli
