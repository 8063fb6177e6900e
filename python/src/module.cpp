// The module preduce._preduce (python/preduce/__init__.py re-exports it): NumPy-shaped calls
// over the library's front end. Every argument is checked before any work; a bad one is a
// TypeError or ValueError, a backend this build lacks preduce.BackendUnavailable.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "calls.hpp"
#include "device_arrays.hpp"
#include "preduce/preduce.hpp"

namespace preduce_python {
namespace {

call make_call(const std::string& backend, const std::string& precision, int threads, void* stream) {
    call c;
    c.backend = preduce::parse_backend(backend);  // preduce::invalid_argument -> ValueError
    if (precision == "fast") c.options.precision = preduce::precision::fast;
    else if (precision == "deterministic") c.options.precision = preduce::precision::deterministic;
    else if (precision == "compensated") c.options.precision = preduce::precision::compensated;
    else
        throw py::value_error("preduce: precision=\"" + precision + "\"; use \"fast\", \"deterministic\" or \"compensated\"");
    if (threads < 0) throw py::value_error("preduce: threads=" + std::to_string(threads) + "; use 0 (the default) or more");
    c.options.threads = threads;
    c.options.stream = stream;
    return c;
}

// axis=None -> empty (the whole array); an int or a sequence of ints, each in [-ndim, ndim)
// and named once.
std::vector<int> axes_of(py::handle axis, std::size_t ndim, bool single_only, const char* name) {
    std::vector<int> axes;
    if (axis.is_none()) return axes;
    if (py::isinstance<py::int_>(axis)) {
        axes.push_back(axis.cast<int>());
    } else if (py::isinstance<py::sequence>(axis) && !py::isinstance<py::str>(axis)) {
        if (single_only)
            throw py::type_error(std::string("preduce.") + name + ": axis must be None or an int, as in NumPy");
        for (py::handle a : axis.cast<py::sequence>()) {
            if (!py::isinstance<py::int_>(a)) throw py::type_error(std::string("preduce.") + name + ": axes must be ints");
            axes.push_back(a.cast<int>());
        }
    } else {
        throw py::type_error(std::string("preduce.") + name + ": axis must be None, an int or a tuple of ints");
    }
    std::vector<int> seen;
    for (int& a : axes) {
        const int n = static_cast<int>(ndim);
        if (a < -n || a >= n)
            throw py::value_error(std::string("preduce.") + name + ": axis " + std::to_string(a) + " is out of range for " +
                                  std::to_string(ndim) + "-d input");
        if (a < 0) a += n;
        if (std::find(seen.begin(), seen.end(), a) != seen.end())
            throw py::value_error(std::string("preduce.") + name + ": axis " + std::to_string(a) + " is repeated");
        seen.push_back(a);
    }
    return axes;
}

bool has_no_identity(op_id op) {
    return op == op_id::min || op == op_id::max || op == op_id::argmin || op == op_id::argmax || op == op_id::minmax ||
           op == op_id::nanmax;
}

py::object reduce_op(op_id op, py::handle x, py::handle axis, bool keepdims, const std::string& backend,
                     const std::string& precision, int threads, const std::string& dtype) {
    const char* name = op_name(op);
    const array_view v = view_of(x, dtype, "x");
    const call c = make_call(backend, precision, threads, v.stream);
    const bool arg = op == op_id::argmin || op == op_id::argmax;
    std::vector<int> axes = axes_of(axis, v.shape.size(), arg, name);
    if (v.size == 0 && has_no_identity(op))
        throw py::value_error(std::string("preduce.") + name + ": the input is empty, and " + name +
                              " has no identity (as in NumPy)");
    if (axes.empty() || (axes.size() == v.shape.size() && !arg)) {
        py::object r = reduce_whole(op, v, c);
        if (!keepdims) return r;
        const std::vector<py::ssize_t> ones(v.shape.size(), 1);
        return py::module_::import("numpy").attr("asarray")(r).attr("reshape")(py::tuple(py::cast(ones)));
    }
    if (v.on_gpu)
        throw py::value_error(std::string("preduce.") + name +
                              ": axis= on GPU memory is not supported by the module; reduce the whole array, or use "
                              "reduce_segments over a host copy");
    py::object r = reduce_axes(op, v, axes, keepdims, c);
    if (py::cast<py::array>(r).ndim() == 0) return r.attr("__getitem__")(py::tuple());  // a scalar, as NumPy gives
    return r;
}

// offsets: a 1-D array of non-negative integers, as uint64 (in place where they are already).
py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast> offsets_of(py::handle offsets) {
    py::array a = py::module_::import("numpy").attr("asarray")(offsets);
    const char kind = a.dtype().kind();
    if (kind != 'i' && kind != 'u')
        throw py::type_error("preduce.reduce_segments: offsets must be integers; they are " + std::string(py::str(a.dtype())));
    if (a.ndim() != 1) throw py::value_error("preduce.reduce_segments: offsets must be 1-D");
    if (kind == 'i' && py::bool_(a.attr("__lt__")(0).attr("any")()))
        throw py::value_error("preduce.reduce_segments: an offset is negative");
    py::array_t<std::uint64_t, py::array::c_style | py::array::forcecast> u(a);
    if (u.size() == 0) throw py::value_error("preduce.reduce_segments: offsets is empty; give m + 1 offsets for m segments");
    return u;
}

// offsets in GPU memory, for x in GPU memory: 1-D int64 or uint64, read in place (the
// library checks them on the GPU: a negative int64 reads as an offset past the end there).
array_view device_offsets_of(py::handle offsets, const array_view& x) {
    array_view off = view_of(offsets, "", "offsets");
    if (!x.on_gpu)
        throw py::value_error("preduce.reduce_segments: offsets are GPU memory and x is host memory; give host offsets");
    if (off.type != element::i64 && off.type != element::u64)
        throw py::type_error(std::string("preduce.reduce_segments: offsets in GPU memory must be int64 or uint64; they are ") +
                             element_name(off.type));
    if (off.shape.size() != 1) throw py::value_error("preduce.reduce_segments: offsets must be 1-D");
    if (off.size == 0) throw py::value_error("preduce.reduce_segments: offsets is empty; give m + 1 offsets for m segments");
    return off;
}

} // namespace
} // namespace preduce_python

PYBIND11_MODULE(_preduce, m) {
    using namespace preduce_python;
    m.doc() = "preduce: parallel reductions with interchangeable backends (seq, openmp, kokkos, cuda) and bits that "
              "do not depend on the backend under precision=\"deterministic\"";

    static py::exception<preduce::error> error(m, "Error", PyExc_RuntimeError);
    static py::exception<preduce::backend_unavailable> unavailable(m, "BackendUnavailable", error.ptr());
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const preduce::backend_unavailable& e) {
            PyErr_SetString(unavailable.ptr(), e.what());
        } catch (const preduce::invalid_argument& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        } catch (const preduce::out_of_memory& e) {
            PyErr_SetString(PyExc_MemoryError, e.what());
        } catch (const preduce::error& e) {
            PyErr_SetString(error.ptr(), e.what());
        }
    });

    // sum, prod, min, ...: the package's Python functions (preduce/__init__.py) give them
    // NumPy's signature with preduce's keywords and call this one positionally (pybind11's
    // keyword matching costs more than the reduction of a small array).
    m.def(
        "_reduce",
        [](int op, py::handle x, py::handle axis, bool keepdims, const std::string& backend, const std::string& precision,
           int threads, const std::string& dtype) {
            if (op < 0 || op > static_cast<int>(op_id::nanmax) || static_cast<op_id>(op) == op_id::minmax)
                throw py::value_error("preduce._reduce: no operation " + std::to_string(op));
            return reduce_op(static_cast<op_id>(op), x, axis, keepdims, backend, precision, threads, dtype);
        },
        "the reduction of preduce.<op>: (operation number, x, axis, keepdims, backend, precision, threads, dtype)");
    m.def(
        "_operations",
        [] {
            std::vector<std::string> names;
            for (int i = 0; i <= static_cast<int>(op_id::nanmax); ++i)
                names.emplace_back(static_cast<op_id>(i) == op_id::minmax ? "" : op_name(static_cast<op_id>(i)));
            return names;
        },
        "the operations of _reduce by number ('' where the number has none)");
    m.def(
        "minmax",
        [](py::handle x, const std::string& backend, const std::string& precision, int threads, const std::string& dtype) {
            return reduce_op(op_id::minmax, x, py::none(), false, backend, precision, threads, dtype);
        },
        py::arg("x"), py::kw_only(), py::arg("backend") = "auto", py::arg("precision") = "fast", py::arg("threads") = 0,
        py::arg("dtype") = "", "(min, max) of the whole array in one pass");
    m.def(
        "dot",
        [](py::handle x, py::handle y, const std::string& backend, const std::string& precision, int threads,
           const std::string& dtype) {
            const array_view a = view_of(x, dtype, "x"), b = view_of(y, dtype, "y");
            return dot(a, b, make_call(backend, precision, threads, a.stream));
        },
        py::arg("x"), py::arg("y"), py::kw_only(), py::arg("backend") = "auto", py::arg("precision") = "fast",
        py::arg("threads") = 0, py::arg("dtype") = "", "sum(x * y) of two arrays of one type and length");
    m.def(
        "reduce_segments",
        [](py::handle x, py::handle offsets, const std::string& op, py::object out, const std::string& backend,
           const std::string& precision, int threads, const std::string& dtype) {
            const op_id o = parse_op(op);
            const array_view v = view_of(x, dtype, "x");
            if (is_gpu_array(offsets)) {
                const array_view off = device_offsets_of(offsets, v);  // alive for the call
                return reduce_segments(o, v, {static_cast<const std::uint64_t*>(off.data), off.size - 1, 0}, out,
                                       make_call(backend, precision, threads, v.stream));
            }
            const auto off = offsets_of(offsets);  // alive for the call
            return reduce_segments(o, v, {off.data(), static_cast<std::size_t>(off.size()) - 1, 0}, out,
                                   make_call(backend, precision, threads, v.stream));
        },
        py::arg("x"), py::arg("offsets"), py::arg("op") = "sum", py::kw_only(), py::arg("out") = py::none(),
        py::arg("backend") = "auto", py::arg("precision") = "fast", py::arg("threads") = 0, py::arg("dtype") = "",
        "one result per segment [offsets[i], offsets[i+1]) of the flattened x (np.add.reduceat with the end given)");
    m.def(
        "reduce_batches",
        [](py::handle x, std::uint64_t k, const std::string& op, py::object out, const std::string& backend,
           const std::string& precision, int threads, const std::string& dtype) {
            const op_id o = parse_op(op);
            const array_view v = view_of(x, dtype, "x");
            if (k == 0) throw py::value_error("preduce.reduce_batches: k is 0; give the batch length");
            if (v.size % k != 0)
                throw py::value_error("preduce.reduce_batches: " + std::to_string(v.size) + " elements are not a whole number of batches of " +
                                      std::to_string(k));
            return reduce_segments(o, v, {nullptr, static_cast<std::size_t>(v.size / k), k}, out,
                                   make_call(backend, precision, threads, v.stream));
        },
        py::arg("x"), py::arg("k"), py::arg("op") = "sum", py::kw_only(), py::arg("out") = py::none(),
        py::arg("backend") = "auto", py::arg("precision") = "fast", py::arg("threads") = 0, py::arg("dtype") = "",
        "one result per k consecutive elements of the flattened x");
    m.def(
        "reduce_by_key",
        [](py::handle keys, py::handle values, const std::string& op, const std::string& backend, const std::string& precision,
           int threads, const std::string& dtype) {
            const op_id o = parse_op(op);
            const array_view k = view_of(keys, "", "keys"), v = view_of(values, dtype, "values");
            return reduce_by_key(o, k, v, make_call(backend, precision, threads, v.stream));
        },
        py::arg("keys"), py::arg("values"), py::arg("op") = "sum", py::kw_only(), py::arg("backend") = "auto",
        py::arg("precision") = "fast", py::arg("threads") = 0, py::arg("dtype") = "",
        "runs of equal consecutive keys: (first key of each run, the op over the run's values)");

    register_device_arrays(m);

    m.def(
        "backends",
        [] {
            std::vector<std::string> names;
            for (preduce::backend b : preduce::available_backends()) names.emplace_back(preduce::name(b));
            return names;
        },
        "the backends this machine can run, e.g. ['seq', 'openmp', 'kokkos']");
    m.def(
        "element_types",
        [] {
            std::vector<std::string> names;
#define PREDUCE_PYTHON_ELEMENT_NAME(T) names.emplace_back(preduce::detail::type_name<T>());
            PREDUCE_FOR_EACH_BUILTIN_ELEMENT(PREDUCE_PYTHON_ELEMENT_NAME)
#undef PREDUCE_PYTHON_ELEMENT_NAME
            return names;
        },
        "the element types this build reduces (CMake's PREDUCE_ELEMENTS), by preduce's names");
    m.def(
        "describe", [](const std::string& b, int threads) {
            preduce::options o;
            o.threads = threads;
            return preduce::describe(preduce::parse_backend(b), o);
        },
        py::arg("backend"), py::arg("threads") = 0, "a backend with its run-time detail, e.g. 'openmp(2 threads)'");
    m.def(
        "_native_seconds",
        [](py::handle x, const std::string& op, int calls, const std::string& backend, const std::string& precision) {
            const array_view v = view_of(x, "", "x");
            return native_seconds(parse_op(op), v, make_call(backend, precision, 0, v.stream), calls);
        },
        py::arg("x"), py::arg("op") = "sum", py::arg("calls") = 10, py::arg("backend") = "auto",
        py::arg("precision") = "fast",
        "seconds per call of the C++ library's call behind preduce.<op>(x), timed in C++ (bench/python_vs_numpy.py's anchor)");
    m.def("_reload_calibration", &preduce::reload_calibration,
          "reads the calibration file again (preduce.calibrate() calls it after writing one)");
    m.def(
        "unusable_reason", [](const std::string& b) { return preduce::unusable_reason(preduce::parse_backend(b)); },
        py::arg("backend"), "why a backend cannot run here ('' when it can)");
}
