// Whole-array reductions and dot: NumPy scalars.
#include "calls_common.hpp"

namespace preduce_python {

using namespace detail;

py::object reduce_whole(op_id op, const array_view& x, const call& c) {
    return visit(x.type, [&](auto tag) {
        using T = decltype(tag);
        const auto* p = static_cast<const T*>(x.data);
        return with_op<T>(op, [&](const auto& o) -> py::object {
            decltype(preduce::reduce(c.backend, p, x.size, o, c.options)) r;
            {
                py::gil_scoped_release unlocked;
                r = preduce::reduce(c.backend, p, x.size, o, c.options);
            }
            return whole_result(op, r, x.type);
        });
    });
}

py::object dot(const array_view& x, const array_view& y, const call& c) {
    check_same(x, y, "dot");
    return visit(x.type, [&](auto tag) -> py::object {
        using T = decltype(tag);
        const auto* p = static_cast<const T*>(x.data);
        const auto* q = static_cast<const T*>(y.data);
        decltype(preduce::reduce(c.backend, p, q, x.size, preduce::dot, c.options)) r;
        {
            py::gil_scoped_release unlocked;
            r = preduce::reduce(c.backend, p, q, x.size, preduce::dot, c.options);
        }
        return scalar(number(r), result_dtype(op_id::sum, x.type == element::bf16 ? element::f32 : x.type));
    });
}

} // namespace preduce_python
