#pragma once
// --op and --pred: parsed and checked once, then turned into the preduce operation
// for whatever element type the data turns out to have.
#include <optional>
#include <string>
#include <string_view>

#include <preduce/preduce.hpp>

#include "cli_error.hpp"
#include "parse_number.hpp"

namespace preduce_cli {

enum class op_kind {
    sum, wide_sum, prod, min, max, argmin, argmax, count_if,
    sumsq, asum, dot, mean, var, minmax, moments,
};

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

struct operation {
    op_kind kind = op_kind::sum;
    std::string name;    // "sum", "count_if", ...
    std::string label;   // name plus predicate, e.g. "count_if(greater:0.5)"
    std::optional<predicate_text> pred;
    std::string pred_spec;  // --pred as typed, empty unless count_if

    bool is_arg() const { return kind == op_kind::argmin || kind == op_kind::argmax; }
    // Reads two inputs side by side (--input2, or a second generated vector).
    bool is_binary() const { return kind == op_kind::dot; }
    // Sums of element-type values (of x, |x|, x^2 or x*y): over floats they round, and
    // the report measures that rounding against the exact value.
    bool is_sum_like() const {
        return kind == op_kind::sum || kind == op_kind::wide_sum || kind == op_kind::asum ||
               kind == op_kind::sumsq || kind == op_kind::dot;
    }
    result_shape shape() const {
        if (is_arg()) return result_shape::arg;
        if (kind == op_kind::minmax) return result_shape::minmax;
        if (kind == op_kind::moments) return result_shape::moments;
        return result_shape::scalar;
    }
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
    switch (op.kind) {
    case op_kind::sum: return f(preduce::sum);
    case op_kind::wide_sum: return f(preduce::wide_sum);
    case op_kind::prod: return f(preduce::prod);
    case op_kind::min: return f(preduce::min);
    case op_kind::max: return f(preduce::max);
    case op_kind::argmin: return f(preduce::argmin);
    case op_kind::argmax: return f(preduce::argmax);
    case op_kind::sumsq: return f(preduce::sumsq);
    case op_kind::asum: return f(preduce::asum);
    case op_kind::dot: return f(preduce::dot);
    case op_kind::mean: return f(preduce::mean);
    case op_kind::var: return f(preduce::variance);
    case op_kind::minmax: return f(preduce::minmax);
    case op_kind::moments: return f(preduce::moments);
    case op_kind::count_if: break;
    }
    preduce::predicate_spec<T> spec{op.pred->kind, T{}, T{}};
    if (spec.kind != preduce::predicate_kind::is_nan) {
        const bool range = spec.kind == preduce::predicate_kind::in_range;
        spec.a = detail::threshold<T>(op.pred->a, range ? "lower bound" : "threshold");
        if (range) spec.b = detail::threshold<T>(op.pred->b, "upper bound");
    }
    return f(preduce::count_if(spec));
}

} // namespace preduce_cli
