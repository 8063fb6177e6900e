// Reductions along axes: NumPy arrays of the kept axes' shape.
#include "calls_common.hpp"

namespace preduce_python {

using namespace detail;

py::object reduce_axes(op_id op, const array_view& x, const std::vector<int>& axes, bool keepdims, const call& c) {
    if (op == op_id::minmax)
        throw py::value_error("preduce.minmax takes no axis; call preduce.min and preduce.max with the axis");
    std::vector<py::ssize_t> kept;
    std::vector<bool> reduced(x.shape.size(), false);
    for (int a : axes) reduced[static_cast<std::size_t>(a < 0 ? a + static_cast<int>(x.shape.size()) : a)] = true;
    for (std::size_t d = 0; d < x.shape.size(); ++d) {
        if (!reduced[d]) kept.push_back(static_cast<py::ssize_t>(x.shape[d]));
        else if (keepdims) kept.push_back(1);
    }
    return visit(x.type, [&](auto tag) {
        using T = decltype(tag);
        const auto* p = static_cast<const T*>(x.data);
        return with_op<T>(op, [&](const auto& o) -> py::object {
            using R = preduce::result_of_t<T, std::remove_cvref_t<decltype(o)>>;
            std::vector<R> r;
            {
                py::gil_scoped_release unlocked;
                r = preduce::reduce_axes(c.backend, p, std::span<const std::size_t>(x.shape), std::span<const int>(axes), o,
                                         c.options);
            }
            if constexpr (requires { r[0].min; }) return py::none();  // refused above
            else return to_array(r, kept, result_dtype(op, x.type));
        });
    });
}

} // namespace preduce_python
