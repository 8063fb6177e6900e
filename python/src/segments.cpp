// Many results by offsets, and runs of equal keys.
#include "calls_common.hpp"

namespace preduce_python {

using namespace detail;

py::object reduce_segments(op_id op, const array_view& x, const segments_spec& segments, py::object out, const call& c) {
    if (op == op_id::minmax)
        throw py::value_error("preduce.reduce_segments: minmax has two results a segment; reduce with min and max");
    const std::size_t m = segments.m;
    const std::string dtype = result_dtype(op, x.type);
    if (!out.is_none()) {  // checked before any work
        if (!py::isinstance<py::array>(out))
            throw py::type_error("preduce.reduce_segments: out must be a NumPy array of " + dtype);
        py::array target = out;
        if (!target.writeable()) throw py::value_error("preduce.reduce_segments: out is read-only");
        if (!target.dtype().is(py::dtype(dtype)))
            throw py::type_error("preduce.reduce_segments: out is " + std::string(py::str(target.dtype())) + "; " +
                                 op_name(op) + " of " + element_name(x.type) + " gives " + dtype);
        if (target.ndim() != 1 || static_cast<std::size_t>(target.shape(0)) != m)
            throw py::value_error("preduce.reduce_segments: out must be 1-D with " + std::to_string(m) +
                                  " elements, one per segment");
    }
    return visit(x.type, [&](auto tag) {
        using T = decltype(tag);
        const auto* p = static_cast<const T*>(x.data);
        return with_op<T>(op, [&](const auto& o) -> py::object {
            using R = preduce::result_of_t<T, std::remove_cvref_t<decltype(o)>>;
            const auto run = [&](R* results) {
                py::gil_scoped_release unlocked;
                if (segments.k != 0) preduce::reduce_batches(c.backend, p, x.size, segments.k, o, results, c.options);
                else preduce::reduce_segments(c.backend, p, x.size, segments.offsets, m, o, results, c.options);
            };
            // Results NumPy holds as they are (numbers of the result dtype): straight into the
            // caller's out, or into the new array; the others through a vector, converted.
            if constexpr (std::is_arithmetic_v<R>) {
                if (py::dtype::of<R>().is(py::dtype(dtype))) {
                    py::array_t<R> a = out.is_none() ? py::array_t<R>(static_cast<py::ssize_t>(m)) : py::array_t<R>(out);
                    if (!out.is_none() && (a.ptr() != out.ptr() || !(a.flags() & py::array::c_style)))
                        throw py::value_error("preduce.reduce_segments: out must be C-contiguous");
                    run(a.mutable_data());
                    return out.is_none() ? py::object(a) : out;
                }
            }
            std::vector<R> r(m);
            run(r.data());
            py::array a = to_array(r, {static_cast<py::ssize_t>(m)}, dtype);
            if (out.is_none()) return a;
            py::array target = out;
            target[py::slice(0, static_cast<py::ssize_t>(m), 1)] = a;
            return out;
        });
    });
}

py::object reduce_by_key(op_id op, const array_view& keys, const array_view& values, const call& c) {
    if (keys.size != values.size)
        throw py::value_error("preduce.reduce_by_key: " + std::to_string(keys.size) + " keys but " +
                              std::to_string(values.size) + " values; give one key per value");
    if (keys.on_gpu) throw py::value_error("preduce.reduce_by_key: the keys are GPU memory; give host keys");
    return visit<true>(keys.type, [&](auto key_tag) -> py::object {
        using K = decltype(key_tag);
        if constexpr (is_half_v<K>) {
            throw py::type_error("preduce.reduce_by_key: keys of 16-bit floats are not supported; give integer, float32 "
                                 "or float64 keys");
        } else {
        preduce::key_runs<K> runs;
        {
            py::gil_scoped_release unlocked;
            runs = preduce::runs_of(static_cast<const K*>(keys.data), keys.size);
        }
        std::vector<K> first = std::move(runs.keys);
        py::object results = reduce_segments(op, values, {runs.offsets.data(), runs.offsets.size() - 1, 0}, py::none(), c);
        py::array k = to_array(first, {static_cast<py::ssize_t>(first.size())},
                               keys.type == element::bf16 ? "float32" : element_name(keys.type));
        return py::make_tuple(k, results);
        }
    });
}

} // namespace preduce_python
