#pragma once
// --op and --pred: parsed and checked once, then turned into the preduce operation
// for whatever element type the data turns out to have.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <preduce/preduce.hpp>

#include "cli_error.hpp"
#include "input/parse_number.hpp"

namespace preduce_cli {

// What one result looks like, which decides the columns of the report.
enum class result_shape {
    scalar,   // one number: sums, prod, min, max, count_if, mean, var
    arg,      // argmin/argmax: value and index
    minmax,   // min and max
    moments,  // count, mean, variance
};

struct predicate_text {
    preduce::predicate_kind kind;
    std::string a, b;  // thresholds as typed; parsed in the element type later
};

// The operations --op offers: every plain built-in of the library
// (preduce/detail/backend_contract/operation_list.hpp), then count_if, dot, mean, var and minmax, whose op
// objects take a predicate, two inputs or reshape their results. Names and help texts are
// the library's (reducers.hpp, ops.hpp).
struct op_info {
    std::string_view name;
    std::string_view help;
    result_shape shape;
    bool binary;     // reads two inputs side by side (dot)
    bool predicate;  // needs --pred (count_if)
};
const std::vector<op_info>& cli_operations();

struct operation {
    std::string name;    // "sum", "count_if", ...
    std::string label;   // name plus predicate, e.g. "count_if(greater:0.5)"
    std::optional<predicate_text> pred;
    std::string pred_spec;  // --pred as typed, empty unless count_if
    result_shape result = result_shape::scalar;
    bool binary = false;

    bool is_arg() const { return result == result_shape::arg; }
    // Reads two inputs side by side (--input2, or a second generated vector).
    bool is_binary() const { return binary; }
    result_shape shape() const { return result; }
};

// Throws usage_error for an unknown op, a missing/extra/malformed --pred.
operation parse_operation(const std::string& op, const std::optional<std::string>& pred);

namespace detail {
template <class T>
T threshold(const std::string& text, const char* what) {
    const auto p = parse_number<T>(text);
    if (p.status != parse_status::ok)
        throw usage_error(std::string("--pred: ") + what + " '" + text + "' is not a valid " +
                          preduce::detail::type_name<T>() + ", the element type of the data");
    if (numeric(p.value) != numeric(p.value)) throw usage_error("--pred: NaN equals nothing and orders with nothing; use --pred is_nan");
    return p.value;
}
} // namespace detail

// Calls f(op) with the preduce operation object for element type T; every branch
// must return the same type. For dot, f gets preduce::dot, which only a two-input
// reduce() accepts: f must tell it apart (std::same_as<..., preduce::dot_op>).
template <class T, class F>
auto with_preduce_op(const operation& op, F&& f) {
#define PREDUCE_CLI_PLAIN_OP(id, ...) \
    if (op.name == #id) return f(preduce::id);
    PREDUCE_FOR_EACH_PLAIN_OPERATION(PREDUCE_CLI_PLAIN_OP)
#undef PREDUCE_CLI_PLAIN_OP
    if (op.name == preduce::dot_op::name) return f(preduce::dot);
    if (op.name == preduce::mean_op::name) return f(preduce::mean);
    if (op.name == preduce::variance_op::name) return f(preduce::variance);
    if (op.name == preduce::minmax_op::name) return f(preduce::minmax);
    preduce::predicate_spec<T> spec{op.pred->kind, T{}, T{}};
    if (spec.kind != preduce::predicate_kind::is_nan) {
        const bool range = spec.kind == preduce::predicate_kind::in_range;
        spec.a = detail::threshold<T>(op.pred->a, range ? "lower bound" : "threshold");
        if (range) spec.b = detail::threshold<T>(op.pred->b, "upper bound");
    }
    return f(preduce::count_if(spec));
}

} // namespace preduce_cli
