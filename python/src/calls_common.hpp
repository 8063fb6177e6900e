#pragma once
// What the call files (whole.cpp, axes.cpp, segments.cpp) share: the element type picked at
// run time, the operation object of an op_id, NumPy's result dtype, and results turned into
// NumPy scalars and arrays. Internal to the module.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "calls.hpp"
#include "preduce/preduce.hpp"

namespace preduce_python::detail {

inline py::module_& numpy() {
    static py::module_* np = new py::module_(py::module_::import("numpy"));  // kept for the process
    return *np;
}

template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, preduce::float16> || std::is_same_v<T, preduce::bfloat16>;

// f(T{}) where this build compiles reductions of T (PREDUCE_ELEMENTS may leave some out), or
// for any T where Any (keys, which are only compared).
template <class T, bool Any, class F>
py::object if_compiled(element e, F&& f) {
    if constexpr (Any || preduce::is_builtin_element_v<T>) return f(T{});
    else
        throw py::type_error(std::string("preduce: this build of preduce compiles no reductions of ") + element_name(e) +
                             " (CMake's PREDUCE_ELEMENTS left it out)");
}

// Calls f with a value of the element type e.
template <bool Any = false, class F>
py::object visit(element e, F&& f) {
    switch (e) {
    case element::i8: return if_compiled<std::int8_t, Any>(e, f);
    case element::u8: return if_compiled<std::uint8_t, Any>(e, f);
    case element::i16: return if_compiled<std::int16_t, Any>(e, f);
    case element::u16: return if_compiled<std::uint16_t, Any>(e, f);
    case element::i32: return if_compiled<std::int32_t, Any>(e, f);
    case element::u32: return if_compiled<std::uint32_t, Any>(e, f);
    case element::i64: return if_compiled<std::int64_t, Any>(e, f);
    case element::u64: return if_compiled<std::uint64_t, Any>(e, f);
    case element::f16: return if_compiled<preduce::float16, Any>(e, f);
    case element::bf16: return if_compiled<preduce::bfloat16, Any>(e, f);
    case element::f32: return if_compiled<float, Any>(e, f);
    case element::f64: return if_compiled<double, Any>(e, f);
    }
    throw py::type_error("preduce: unknown element type");
}

// NumPy's dtype for the results of op over elements of e (bfloat16, which NumPy lacks:
// float32).
inline std::string result_dtype(op_id op, element e) {
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

inline py::object scalar(py::object value, const std::string& dtype) { return numpy().attr(dtype.c_str())(value); }

// An argmin/argmax index as NumPy gives it; an empty input (no_index) as -1.
inline std::int64_t index_of(std::size_t i) { return i == preduce::no_index ? -1 : static_cast<std::int64_t>(i); }

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

inline void check_same(const array_view& x, const array_view& y, const char* call) {
    if (x.type != y.type)
        throw py::type_error(std::string("preduce.") + call + ": x is " + element_name(x.type) + " and y is " +
                             element_name(y.type) + "; give arrays of one element type");
    if (x.size != y.size)
        throw py::value_error(std::string("preduce.") + call + ": x has " + std::to_string(x.size) + " elements and y " +
                              std::to_string(y.size) + "; give arrays of one length");
}


} // namespace preduce_python::detail
