#include "arrays.hpp"

#include <pybind11/numpy.h>

#include <cstdint>
#include <memory>
#include <stdexcept>

#include "dlpack_abi.hpp"

namespace preduce_python {

const char* element_name(element e) noexcept {
    switch (e) {
    case element::i8: return "int8";
    case element::u8: return "uint8";
    case element::i16: return "int16";
    case element::u16: return "uint16";
    case element::i32: return "int32";
    case element::u32: return "uint32";
    case element::i64: return "int64";
    case element::u64: return "uint64";
    case element::f16: return "float16";
    case element::bf16: return "bfloat16";
    case element::f32: return "float32";
    case element::f64: return "float64";
    }
    return "?";
}

namespace {

// The element type of a kind ('i', 'u', 'f') and a size in bytes; false where the library has none.
bool element_of(char kind, std::size_t bytes, element& e) {
    if (kind == 'i' && bytes == 1) e = element::i8;
    else if (kind == 'u' && bytes == 1) e = element::u8;
    else if (kind == 'i' && bytes == 2) e = element::i16;
    else if (kind == 'u' && bytes == 2) e = element::u16;
    else if (kind == 'i' && bytes == 4) e = element::i32;
    else if (kind == 'u' && bytes == 4) e = element::u32;
    else if (kind == 'i' && bytes == 8) e = element::i64;
    else if (kind == 'u' && bytes == 8) e = element::u64;
    else if (kind == 'f' && bytes == 2) e = element::f16;
    else if (kind == 'f' && bytes == 4) e = element::f32;
    else if (kind == 'f' && bytes == 8) e = element::f64;
    else return false;
    return true;
}

[[noreturn]] void unsupported(const char* what, const std::string& type) {
    throw py::type_error(std::string("preduce: ") + what + " has elements of type " + type +
                         "; preduce reduces int8..int64, uint8..uint64, float16, float32 and float64 (and bfloat16 "
                         "given as a uint16 array with dtype=\"bfloat16\")");
}

void apply_dtype(array_view& v, const std::string& dtype, const char* what) {
    if (dtype.empty()) return;
    if (dtype != "bfloat16")
        throw py::value_error(std::string("preduce: dtype=\"") + dtype +
                              "\" is not understood; dtype is only for \"bfloat16\" (the bits in a uint16 array)");
    if (v.type != element::u16)
        throw py::type_error(std::string("preduce: dtype=\"bfloat16\" takes the bits of ") + what +
                             " from a uint16 array; it is " + element_name(v.type));
    v.type = element::bf16;
}

array_view from_cuda_interface(py::handle obj, const std::string& dtype, const char* what) {
    const py::dict cai = obj.attr("__cuda_array_interface__");
    array_view v;
    v.on_gpu = true;
    v.owner = py::reinterpret_borrow<py::object>(obj);
    if (!cai.contains("shape") || !cai.contains("typestr") || !cai.contains("data"))
        throw py::value_error(std::string("preduce: ") + what +
                              "'s __cuda_array_interface__ lacks shape, typestr or data");
    const int version = cai.contains("version") ? cai["version"].cast<int>() : 0;
    if (version < 2 || version > 3)
        throw py::value_error(std::string("preduce: ") + what + "'s __cuda_array_interface__ is version " +
                              std::to_string(version) + "; preduce reads versions 2 and 3");
    const auto typestr = cai["typestr"].cast<std::string>();
    if (typestr.size() < 3 || (typestr[0] != '<' && typestr[0] != '|'))
        throw py::type_error(std::string("preduce: ") + what + "'s typestr \"" + typestr +
                             "\" is not a little-endian number type");
    if (!element_of(typestr[1], std::stoul(typestr.substr(2)), v.type)) unsupported(what, typestr);
    apply_dtype(v, dtype, what);
    for (py::handle d : cai["shape"].cast<py::tuple>()) {
        const auto extent = d.cast<long long>();
        if (extent < 0) throw py::value_error(std::string("preduce: ") + what + " has a negative extent");
        v.shape.push_back(static_cast<std::size_t>(extent));
        v.size *= static_cast<std::size_t>(extent);
    }
    if (cai.contains("strides") && !cai["strides"].is_none()) {
        // C-contiguous strides are allowed spelled out.
        const auto strides = cai["strides"].cast<py::tuple>();
        std::size_t expect = std::stoul(typestr.substr(2));
        for (std::size_t i = v.shape.size(); i-- > 0;) {
            if (v.shape[i] > 1 && strides[i].cast<long long>() != static_cast<long long>(expect))
                throw py::value_error(std::string("preduce: ") + what +
                                      " is a strided GPU array; give a C-contiguous one (e.g. cupy.ascontiguousarray)");
            expect *= v.shape[i];
        }
    }
    if (cai.contains("mask") && !cai["mask"].is_none())
        throw py::value_error(std::string("preduce: ") + what + " is a masked GPU array; preduce reads unmasked data");
    const auto data = cai["data"].cast<py::tuple>();
    v.data = reinterpret_cast<const void*>(data[0].cast<std::uintptr_t>());
    if (v.data == nullptr && v.size != 0)
        throw py::value_error(std::string("preduce: ") + what + "'s __cuda_array_interface__ has a null pointer");
    // Version 3: reading must wait for the work queued on "stream" (1: the legacy default
    // stream, 2: the per-thread default stream, else a cudaStream_t); running the reduction
    // on that stream orders it after that work. These are also the CUDA runtime's handles.
    if (cai.contains("stream") && !cai["stream"].is_none()) {
        const auto s = cai["stream"].cast<std::uintptr_t>();
        if (s == 0) throw py::value_error(std::string("preduce: ") + what + "'s stream is 0, which version 3 disallows");
        v.stream = reinterpret_cast<void*>(s);
    }
    return v;
}

array_view from_dlpack(py::handle obj, const std::string& dtype, const char* what) {
    const auto device = obj.attr("__dlpack_device__")().cast<py::tuple>();
    const int type = device[0].cast<int>();
    if (type != 1 && type != 2 && type != 3 && type != 13)
        throw py::value_error(std::string("preduce: ") + what + " is DLPack memory of device type " + std::to_string(type) +
                              "; preduce reads CPU, CUDA, CUDA host and CUDA managed memory");
    py::object capsule = type == 2 || type == 13 ? obj.attr("__dlpack__")(py::arg("stream") = 1) : obj.attr("__dlpack__")();
    auto* managed = static_cast<dl_managed_tensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
    if (managed == nullptr) throw py::error_already_set();
    // Consumed: the capsule no longer frees the tensor; this view does, after the call.
    PyCapsule_SetName(capsule.ptr(), "used_dltensor");
    array_view v;
    v.tensor = std::shared_ptr<void>(managed, [](void* p) {
        auto* m = static_cast<dl_managed_tensor*>(p);
        if (m->deleter != nullptr) m->deleter(m);
    });
    v.owner = py::reinterpret_borrow<py::object>(obj);
    v.on_gpu = type == 2 || type == 13;
    const dl_tensor& t = managed->dl;
    const char kind = t.dtype.code == 0 ? 'i' : t.dtype.code == 1 ? 'u' : t.dtype.code == 2 ? 'f' : 0;
    if (t.dtype.lanes != 1) unsupported(what, "a vector DLPack type");
    if (t.dtype.code == 4 && t.dtype.bits == 16) {
        v.type = element::bf16;
    } else if (kind == 0 || !element_of(kind, t.dtype.bits / 8u, v.type) || t.dtype.bits % 8 != 0) {
        unsupported(what, "DLPack code " + std::to_string(t.dtype.code) + ", " + std::to_string(t.dtype.bits) + " bits");
    }
    if (!(v.type == element::bf16 && dtype == "bfloat16")) apply_dtype(v, dtype, what);  // bfloat16 already
    std::int64_t expect = 1;
    for (int32_t i = t.ndim; i-- > 0;) {
        if (t.strides != nullptr && t.shape[i] > 1 && t.strides[i] != expect)
            throw py::value_error(std::string("preduce: ") + what + " is a strided DLPack tensor; give a C-contiguous one");
        expect *= t.shape[i];
    }
    for (int32_t i = 0; i < t.ndim; ++i) {
        if (t.shape[i] < 0) throw py::value_error(std::string("preduce: ") + what + " has a negative extent");
        v.shape.push_back(static_cast<std::size_t>(t.shape[i]));
        v.size *= v.shape.back();
    }
    v.data = static_cast<const char*>(t.data) + t.byte_offset;
    return v;
}

} // namespace

bool is_gpu_array(py::handle obj) {
    if (py::isinstance<py::array>(obj)) return false;
    if (py::hasattr(obj, "__cuda_array_interface__")) return true;
    if (PyObject_CheckBuffer(obj.ptr()) || !py::hasattr(obj, "__dlpack_device__")) return false;
    const int type = obj.attr("__dlpack_device__")().cast<py::tuple>()[0].cast<int>();
    return type == 2 || type == 13;
}

array_view view_of(py::handle obj, const std::string& dtype, const char* what) {
    if (obj.is_none()) throw py::type_error(std::string("preduce: ") + what + " is None; give an array");
    // A NumPy array is host memory with the buffer protocol: it skips the GPU interfaces'
    // lookups (an attribute that is missing costs a raised and cleared exception each).
    const bool numpy_array = py::isinstance<py::array>(obj);
    if (!numpy_array && py::hasattr(obj, "__cuda_array_interface__")) return from_cuda_interface(obj, dtype, what);
    if (!numpy_array && !PyObject_CheckBuffer(obj.ptr()) && py::hasattr(obj, "__dlpack__") &&
        py::hasattr(obj, "__dlpack_device__"))
        return from_dlpack(obj, dtype, what);
    if (!PyObject_CheckBuffer(obj.ptr()))
        throw py::type_error(std::string("preduce: ") + what + " (" + std::string(py::str(py::type::of(obj).attr("__name__"))) +
                             ") has neither the buffer protocol, __cuda_array_interface__ nor __dlpack__");
    array_view v;
    py::object source = py::reinterpret_borrow<py::object>(obj);
    auto info = std::make_shared<py::buffer_info>(py::reinterpret_borrow<py::buffer>(source).request());
    // Non-contiguous layouts: NumPy's C-ordered copy of them (one pass over the data).
    bool contiguous = true;
    {
        auto expect = static_cast<py::ssize_t>(info->itemsize);
        for (py::ssize_t i = info->ndim; i-- > 0;) {
            if (info->shape[static_cast<std::size_t>(i)] > 1 && info->strides[static_cast<std::size_t>(i)] != expect)
                contiguous = false;
            expect *= info->shape[static_cast<std::size_t>(i)];
        }
    }
    if (!contiguous) {
        source = py::module_::import("numpy").attr("ascontiguousarray")(source);
        info = std::make_shared<py::buffer_info>(py::reinterpret_borrow<py::buffer>(source).request());
    }
    std::string format = info->format;
    while (!format.empty() && (format[0] == '<' || format[0] == '=' || format[0] == '@' || format[0] == '!' || format[0] == '>')) {
        if (format[0] == '>' || format[0] == '!') unsupported(what, "big-endian " + format);
        format.erase(0, 1);
    }
    char kind = 0;
    if (format.size() == 1) {
        const char c = format[0];
        if (c == 'b' || c == 'h' || c == 'i' || c == 'l' || c == 'q') kind = 'i';
        else if (c == 'B' || c == 'H' || c == 'I' || c == 'L' || c == 'Q') kind = 'u';
        else if (c == 'e' || c == 'f' || c == 'd') kind = 'f';
    }
    if (kind == 0 || !element_of(kind, static_cast<std::size_t>(info->itemsize), v.type))
        unsupported(what, "\"" + info->format + "\" (" + std::to_string(info->itemsize) + " bytes)");
    apply_dtype(v, dtype, what);
    v.data = info->ptr;
    for (py::ssize_t i = 0; i < info->ndim; ++i) {
        v.shape.push_back(static_cast<std::size_t>(info->shape[static_cast<std::size_t>(i)]));
        v.size *= v.shape.back();
    }
    v.owner = source;
    v.buffer = info;
    return v;
}

} // namespace preduce_python
