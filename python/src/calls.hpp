#pragma once
// The reductions the module offers, on array_views: the element type picked at run time
// (one compiled call per type and operation), the GIL released while the library runs, and
// the results as NumPy scalars or arrays of NumPy's result dtype for the operation
// (result_dtype). Where preduce's result differs from NumPy's, README's Python section says so.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "preduce/backend.hpp"
#include "preduce/options.hpp"

namespace preduce_python {

enum class op_id { sum, prod, min, max, argmin, argmax, mean, var, count_nonzero, sumsq, minmax, nansum, nanmax };

// "sum", "prod", ...; a ValueError naming the choices otherwise.
op_id parse_op(const std::string& name);
const char* op_name(op_id op) noexcept;

struct call {
    preduce::backend backend = preduce::backend::automatic;
    preduce::options options;
};

// The whole array: a NumPy scalar (argmin/argmax: the flat index, an int; count_nonzero: an
// int; minmax: a (min, max) tuple).
py::object reduce_whole(op_id op, const array_view& x, const call& c);

// Seconds per call of the library's own call behind reduce_whole (calls of them timed in C++,
// after one warm-up, the GIL released): what Python adds is preduce.<op>'s time less this.
double native_seconds(op_id op, const array_view& x, const call& c, int calls);

// NumPy's x.<op>(axis=axes, keepdims=keepdims): an array of the kept axes' shape.
py::object reduce_axes(op_id op, const array_view& x, const std::vector<int>& axes, bool keepdims, const call& c);

// sum(x * y) over two arrays of one element type and size.
py::object dot(const array_view& x, const array_view& y, const call& c);

// Which elements each result reduces: m segments by m + 1 offsets (the caller keeps them
// alive), or batches of k (k != 0: m = n / k).
struct segments_spec {
    const std::uint64_t* offsets = nullptr;
    std::size_t m = 0;
    std::uint64_t k = 0;
};

// One result per segment of the flattened x, into a new array or into `out` (a writable
// array of the result dtype and m elements).
py::object reduce_segments(op_id op, const array_view& x, const segments_spec& segments, py::object out, const call& c);

// Runs of equal keys (operator==: -0.0 and +0.0 one run, each NaN its own): (first keys, results).
py::object reduce_by_key(op_id op, const array_view& keys, const array_view& values, const call& c);

} // namespace preduce_python
