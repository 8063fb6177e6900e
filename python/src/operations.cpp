#include <iterator>
#include <string>

#include "calls.hpp"

namespace preduce_python {

namespace {

const char* const op_names[] = {"sum",    "prod", "min",           "max",   "argmin", "argmax", "mean",
                                "var",    "count_nonzero", "sumsq", "minmax", "nansum", "nanmax"};

} // namespace

op_id parse_op(const std::string& name) {
    for (std::size_t i = 0; i < std::size(op_names); ++i)
        if (name == op_names[i]) return static_cast<op_id>(i);
    std::string all;
    for (const char* n : op_names) all += std::string(all.empty() ? "" : ", ") + n;
    throw py::value_error("preduce: unknown operation \"" + name + "\"; the operations are " + all);
}

const char* op_name(op_id op) noexcept { return op_names[static_cast<int>(op)]; }

} // namespace preduce_python
