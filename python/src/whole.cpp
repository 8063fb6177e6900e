// Whole-array reductions and dot: NumPy scalars.
#include <chrono>

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

double native_seconds(op_id op, const array_view& x, const call& c, int calls) {
    if (calls < 1) throw py::value_error("preduce._native_seconds: calls must be at least 1");
    double seconds = 0;
    visit(x.type, [&](auto tag) {
        using T = decltype(tag);
        const auto* p = static_cast<const T*>(x.data);
        return with_op<T>(op, [&](const auto& o) -> py::object {
            py::gil_scoped_release unlocked;
            auto r = preduce::reduce(c.backend, p, x.size, o, c.options);  // warm-up
            const auto t0 = std::chrono::steady_clock::now();
            for (int i = 0; i < calls; ++i) r = preduce::reduce(c.backend, p, x.size, o, c.options);
            seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / calls;
            static_cast<void>(r);
            return py::object();
        });
    });
    return seconds;
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
