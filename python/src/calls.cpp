#include "calls.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

#include "preduce/preduce.hpp"

namespace preduce_python {

namespace {

const char* const op_names[] = {"sum",    "prod", "min",           "max",   "argmin", "argmax", "mean",
                                "var",    "count_nonzero", "sumsq", "minmax", "nansum", "nanmax"};

py::module_& numpy() {
    static py::module_* np = new py::module_(py::module_::import("numpy"));  // kept for the process
    return *np;
}

template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, preduce::float16> || std::is_same_v<T, preduce::bfloat16>;

// Calls f with a value of the element type e.
template <class F>
decltype(auto) visit(element e, F&& f) {
    switch (e) {
    case element::i8: return f(std::int8_t{});
    case element::u8: return f(std::uint8_t{});
    case element::i16: return f(std::int16_t{});
    case element::u16: return f(std::uint16_t{});
    case element::i32: return f(std::int32_t{});
    case element::u32: return f(std::uint32_t{});
    case element::i64: return f(std::int64_t{});
    case element::u64: return f(std::uint64_t{});
    case element::f16: return f(preduce::float16{});
    case element::bf16: return f(preduce::bfloat16{});
    case element::f32: return f(float{});
    case element::f64: return f(double{});
    }
    throw py::type_error("preduce: unknown element type");
}

// NumPy's dtype for the results of op over elements of e (bfloat16, which NumPy lacks:
// float32).
std::string result_dtype(op_id op, element e) {
    const bool is_float = e == element::f16 || e == element::bf16 || e == element::f32 || e == element::f64;
    const std::string own = e == element::bf16 ? "float32" : element_name(e);
    switch (op) {
    case op_id::argmin:
    case op_id::argmax:
    case op_id::count_nonzero: return "int64";
    case op_id::min:
    case op_id::max:
    case op_id::nanmax:
    case op_id::minmax: return own;
    case op_id::mean:
    case op_id::var: return is_float ? own : "float64";
    default:  // sums and products: NumPy's integer sums are 64-bit
        if (is_float) return own;
        return e == element::u8 || e == element::u16 || e == element::u32 || e == element::u64 ? "uint64" : "int64";
    }
}

// A library result as a Python number.
template <class R>
py::object number(const R& r) {
    if constexpr (is_half_v<R>) return py::float_(static_cast<double>(preduce::to_float(r)));
    else if constexpr (std::is_floating_point_v<R>) return py::float_(static_cast<double>(r));
    else return py::int_(r);
}

py::object scalar(py::object value, const std::string& dtype) { return numpy().attr(dtype.c_str())(value); }

// An argmin/argmax index as NumPy gives it; an empty input (no_index) as -1.
std::int64_t index_of(std::size_t i) { return i == preduce::no_index ? -1 : static_cast<std::int64_t>(i); }

// Library results into a NumPy array of `dtype` and `shape`.
template <class R>
py::array to_array(const std::vector<R>& r, const std::vector<py::ssize_t>& shape, const std::string& dtype) {
    py::array a;
    if constexpr (requires { r[0].index; }) {
        py::array_t<std::int64_t> idx(static_cast<py::ssize_t>(r.size()));
        auto* p = idx.mutable_data();
        for (std::size_t i = 0; i < r.size(); ++i) p[i] = index_of(r[i].index);
        a = idx;
    } else if constexpr (is_half_v<R>) {
        py::array_t<float> f(static_cast<py::ssize_t>(r.size()));
        auto* p = f.mutable_data();
        for (std::size_t i = 0; i < r.size(); ++i) p[i] = preduce::to_float(r[i]);
        a = f;
    } else {
        py::array_t<R> v(static_cast<py::ssize_t>(r.size()));
        if (!r.empty()) std::memcpy(v.mutable_data(), r.data(), r.size() * sizeof(R));
        a = v;
    }
    a = a.attr("astype")(dtype, py::arg("copy") = false);
    return a.attr("reshape")(py::tuple(py::cast(shape)));
}

// The operation object of op for elements T, passed to f; false where op has none for T.
template <class T, class F>
py::object with_op(op_id op, F&& f) {
    switch (op) {
    case op_id::sum:
        if constexpr (std::is_integral_v<T>) return f(preduce::wide_sum);
        else return f(preduce::sum);
    case op_id::prod: return f(preduce::prod);
    case op_id::min: return f(preduce::min);
    case op_id::max: return f(preduce::max);
    case op_id::argmin: return f(preduce::argmin);
    case op_id::argmax: return f(preduce::argmax);
    case op_id::mean: return f(preduce::mean);
    case op_id::var: return f(preduce::variance);
    case op_id::count_nonzero: return f(preduce::count_if(preduce::not_equal(0)));
    case op_id::sumsq: return f(preduce::sumsq);
    case op_id::minmax: return f(preduce::minmax);
    case op_id::nansum: return f(preduce::nansum);
    case op_id::nanmax: return f(preduce::nanmax);
    }
    throw py::value_error("preduce: unknown operation");
}

// A whole-array result as Python sees it.
template <class R>
py::object whole_result(op_id op, const R& r, element e) {
    if constexpr (requires { r.index; }) {
        return py::int_(index_of(r.index));
    } else if constexpr (requires { r.min; }) {
        const std::string d = result_dtype(op, e);
        return py::make_tuple(scalar(number(r.min), d), scalar(number(r.max), d));
    } else {
        if (op == op_id::count_nonzero) return number(r);  // NumPy's count_nonzero gives an int
        return scalar(number(r), result_dtype(op, e));
    }
}

void check_same(const array_view& x, const array_view& y, const char* call) {
    if (x.type != y.type)
        throw py::type_error(std::string("preduce.") + call + ": x is " + element_name(x.type) + " and y is " +
                             element_name(y.type) + "; give arrays of one element type");
    if (x.size != y.size)
        throw py::value_error(std::string("preduce.") + call + ": x has " + std::to_string(x.size) + " elements and y " +
                              std::to_string(y.size) + "; give arrays of one length");
}

} // namespace

op_id parse_op(const std::string& name) {
    for (std::size_t i = 0; i < std::size(op_names); ++i)
        if (name == op_names[i]) return static_cast<op_id>(i);
    std::string all;
    for (const char* n : op_names) all += std::string(all.empty() ? "" : ", ") + n;
    throw py::value_error("preduce: unknown operation \"" + name + "\"; the operations are " + all);
}

const char* op_name(op_id op) noexcept { return op_names[static_cast<int>(op)]; }

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

py::object reduce_segments(op_id op, const array_view& x, const std::vector<std::uint64_t>& offsets, py::object out,
                           const call& c) {
    if (op == op_id::minmax)
        throw py::value_error("preduce.reduce_segments: minmax has two results a segment; reduce with min and max");
    if (offsets.empty()) throw py::value_error("preduce.reduce_segments: offsets is empty; give m + 1 offsets for m segments");
    const std::size_t m = offsets.size() - 1;
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
            std::vector<R> r(m);
            {
                py::gil_scoped_release unlocked;
                preduce::reduce_segments(c.backend, p, x.size, offsets.data(), m, o, r.data(), c.options);
            }
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
    return visit(keys.type, [&](auto key_tag) -> py::object {
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
        py::object results = reduce_segments(op, values, runs.offsets, py::none(), c);
        py::array k = to_array(first, {static_cast<py::ssize_t>(first.size())},
                               keys.type == element::bf16 ? "float32" : element_name(keys.type));
        return py::make_tuple(k, results);
        }
    });
}

} // namespace preduce_python
