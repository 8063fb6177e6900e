#include "operation.hpp"

#include <array>
#include <utility>
#include <vector>

namespace preduce_cli {
namespace {

constexpr std::array<std::pair<std::string_view, op_kind>, 15> ops{{
    {"sum", op_kind::sum},
    {"wide_sum", op_kind::wide_sum},
    {"prod", op_kind::prod},
    {"min", op_kind::min},
    {"max", op_kind::max},
    {"argmin", op_kind::argmin},
    {"argmax", op_kind::argmax},
    {"count_if", op_kind::count_if},
    {"sumsq", op_kind::sumsq},
    {"asum", op_kind::asum},
    {"dot", op_kind::dot},
    {"mean", op_kind::mean},
    {"var", op_kind::var},
    {"minmax", op_kind::minmax},
    {"moments", op_kind::moments},
}};

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

operation parse_operation(const std::string& op, const std::optional<std::string>& pred) {
    operation out;
    bool found = false;
    for (const auto& o : ops)
        if (op == o.first) {
            out.kind = o.second;
            found = true;
        }
    if (!found) {
        std::string valid;
        for (const auto& o : ops) valid += (valid.empty() ? "" : ", ") + std::string(o.first);
        throw usage_error("unknown --op '" + op + "'; valid: " + valid);
    }
    out.name = op;
    out.label = op;
    if (out.kind == op_kind::count_if) {
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
