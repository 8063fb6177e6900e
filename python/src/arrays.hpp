#pragma once
// What the module reads: a Python object's elements, as a pointer, an element type and a
// C-order shape, without a copy where the object allows.
//   host memory    anything with the buffer protocol (NumPy arrays, memoryview,
//                  array.array); a C-contiguous buffer is read in place, any other layout
//                  through NumPy's C-ordered copy (numpy.ascontiguousarray).
//   GPU memory     an object with __cuda_array_interface__ (version 3; C-contiguous), read
//                  in place; its "stream", when given, is the stream the reduction runs on,
//                  so the producer's queued work comes first.
//   DLPack         an object with __dlpack__ / __dlpack_device__ (CPU, CUDA, CUDA host or
//                  managed memory; C-contiguous), read in place; a CUDA producer is asked to
//                  order its work before the legacy default stream (stream=1), which the
//                  reductions' streams wait for.
// Element types: the twelve of the library. NumPy's float16 is float16; bfloat16 comes as
// a uint16 array with dtype="bfloat16". Anything else is a TypeError, a malformed
// interface a ValueError, both before any work.
#include <pybind11/pybind11.h>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace preduce_python {

namespace py = pybind11;

enum class element { i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32, f64 };

// NumPy's name of the element type ("bfloat16" for bfloat16).
const char* element_name(element e) noexcept;

struct array_view {
    const void* data = nullptr;
    element type = element::f64;
    std::vector<std::size_t> shape;  // C order; empty for a 0-d array
    std::size_t size = 1;            // elements
    bool on_gpu = false;
    void* stream = nullptr;          // __cuda_array_interface__'s stream, if it named one
    py::object owner;                // keeps the memory (or its C-ordered copy) alive
    std::shared_ptr<py::buffer_info> buffer;  // the buffer this view holds, released after the call
    std::shared_ptr<void> tensor;              // a DLPack tensor this view holds, given back after the call
};

// Whether view_of would read obj as GPU memory: __cuda_array_interface__, or DLPack of CUDA or
// managed memory without the buffer protocol.
bool is_gpu_array(py::handle obj);

// The elements of obj; dtype "" (the object's own type) or "bfloat16" (a uint16 array of
// bfloat16 bits). `what` names the argument in error messages.
array_view view_of(py::handle obj, const std::string& dtype, const char* what);

} // namespace preduce_python
