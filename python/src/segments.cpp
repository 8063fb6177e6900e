// Many results by offsets, and runs of equal keys.
#include <cstddef>

#include "calls_common.hpp"
#include "device_arrays.hpp"

namespace preduce_python {

using namespace detail;

namespace {

// f(run, (R*)nullptr, host_only) for the element type of x and the operation op, with R the
// library's result type: run(R* results) reduces every segment of x into results (host
// memory, or device memory for the cuda backend, unless host_only: mean and var, which the
// library finishes on the host), the GIL released.
template <class F>
py::object with_segment_run(op_id op, const array_view& x, const segments_spec& segments, const call& c, F&& f) {
    return visit(x.type, [&](auto tag) {
        using T = decltype(tag);
        const auto* p = static_cast<const T*>(x.data);
        return with_op<T>(op, [&](const auto& o) -> py::object {
            using R = preduce::result_of_t<T, std::remove_cvref_t<decltype(o)>>;
            const auto run = [&](R* results) {
                py::gil_scoped_release unlocked;
                if (segments.k != 0) preduce::reduce_batches(c.backend, p, x.size, segments.k, o, results, c.options);
                else preduce::reduce_segments(c.backend, p, x.size, segments.offsets, segments.m, o, results, c.options);
            };
            constexpr bool host_only = requires { typename std::remove_cvref_t<decltype(o)>::reshapes_result; };
            return f(run, static_cast<R*>(nullptr), std::bool_constant<host_only>{});
        });
    });
}

// GPU input with no out, or a GPU out: the results stay on the GPU, in the caller's out or in
// a new DeviceArray on the input's device. The library writes its results there directly
// where they are NumPy's dtype bit for bit; argmin/argmax give (value, index) pairs, whose
// indices the results are (a strided view of them, or a copy into out); the others (16-bit
// floats, integer products, mean, var) come through the host, converted, then copied over.
py::object reduce_segments_on_gpu(op_id op, const array_view& x, const segments_spec& segments, py::object out,
                                  const call& c) {
    const std::size_t m = segments.m;
    const std::string dtype = result_dtype(op, x.type);
    void* target = nullptr;
    array_view out_view;
    if (!out.is_none()) {  // checked before any work
        out_view = view_of(out, "", "out");
        if (py::hasattr(out, "__cuda_array_interface__") &&
            py::cast<bool>(out.attr("__cuda_array_interface__")["data"].cast<py::tuple>()[1]))
            throw py::value_error("preduce.reduce_segments: out is read-only");
        if (element_name(out_view.type) != dtype)
            throw py::type_error("preduce.reduce_segments: out is " + std::string(element_name(out_view.type)) + "; " +
                                 op_name(op) + " of " + element_name(x.type) + " gives " + dtype);
        if (out_view.shape.size() != 1 || out_view.size != m)
            throw py::value_error("preduce.reduce_segments: out must be 1-D with " + std::to_string(m) +
                                  " elements, one per segment");
        target = const_cast<void*>(out_view.data);
    }
    void* stream = c.options.stream;
    return with_segment_run(op, x, segments, c, [&](const auto& run, auto* none, auto host_only) -> py::object {
        using R = std::remove_pointer_t<decltype(none)>;
        device_array made;  // the new result array, where the caller gave no out
        const auto destination = [&] {
            if (target == nullptr) made = device_array::allocate(m, dtype, x.data);
            return target != nullptr ? target : made.data();
        };
        const auto result = [&] { return target != nullptr ? out : py::cast(made); };
        if constexpr (std::is_arithmetic_v<R> && !decltype(host_only)::value) {
            if (py::dtype::of<R>().is(py::dtype(dtype))) {
                run(static_cast<R*>(destination()));
                return result();
            }
        }
        if constexpr (requires(R r) { r.index; }) {
            const device_array pairs = device_array::allocate(m * sizeof(R), "uint8", x.data);
            run(static_cast<R*>(pairs.data()));
            // no_index (an empty segment) reads as -1 in int64, as on the host
            const device_array indices = pairs.view(m, "int64", offsetof(R, index), sizeof(R));
            if (target == nullptr) return py::cast(indices);
            copy_on_device(target, sizeof(std::int64_t), indices.data(), sizeof(R), sizeof(std::int64_t), m, stream);
            return out;
        } else {
            std::vector<R> r(m);
            run(r.data());
            const py::array host = to_array(r, {static_cast<py::ssize_t>(m)}, dtype);
            copy_to_device(destination(), host.data(), static_cast<std::size_t>(host.nbytes()), stream);
            return result();
        }
    });
}

} // namespace

py::object reduce_segments(op_id op, const array_view& x, const segments_spec& segments, py::object out, const call& c) {
    if (op == op_id::minmax)
        throw py::value_error("preduce.reduce_segments: minmax has two results a segment; reduce with min and max");
    if (x.on_gpu && (out.is_none() || is_gpu_array(out))) return reduce_segments_on_gpu(op, x, segments, out, c);
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
    return with_segment_run(op, x, segments, c, [&](const auto& run, auto* none, auto) -> py::object {
        using R = std::remove_pointer_t<decltype(none)>;
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
