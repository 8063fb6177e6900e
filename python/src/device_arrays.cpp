#include "device_arrays.hpp"

#include <pybind11/numpy.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "dlpack_abi.hpp"
#include "preduce/backend.hpp"
#include "preduce/config.hpp"
#include "preduce/errors.hpp"

#if PREDUCE_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace preduce_python {
namespace {

#if PREDUCE_HAVE_CUDA
// A failed runtime call as preduce.Error. The runtime's sticky state is left as the call left
// it: nothing here reads or clears the caller's last error.
void check(cudaError_t e, const char* what) {
    if (e == cudaErrorMemoryAllocation)
        throw preduce::out_of_memory(std::string("preduce: ") + what + ": out of GPU memory");
    if (e != cudaSuccess) throw preduce::error(std::string("preduce: ") + what + ": " + cudaGetErrorString(e));
}

// The current device set to `device` for the scope, then the caller's again.
class on_device {
public:
    explicit on_device(int device) {
        check(cudaGetDevice(&caller_), "cudaGetDevice");
        if (device != caller_) check(cudaSetDevice(device), "cudaSetDevice");
    }
    ~on_device() { cudaSetDevice(caller_); }
    on_device(const on_device&) = delete;
    on_device& operator=(const on_device&) = delete;

private:
    int caller_ = 0;
};
#else
[[noreturn]] void no_cuda() {
    throw preduce::backend_unavailable("preduce: this build has no cuda backend, so it has no GPU memory of its own");
}
#endif

// NumPy's name and the DLPack type of a dtype the module's results have.
struct dtype_info {
    std::size_t itemsize;
    dl_dtype dl;
    char kind;  // for the typestr
};
dtype_info info_of(const std::string& dtype) {
    const py::dtype d(dtype);
    const char kind = d.kind();
    const auto bytes = static_cast<std::size_t>(d.itemsize());
    const std::uint8_t code = kind == 'i' ? 0 : kind == 'u' ? 1 : 2;
    if (kind != 'i' && kind != 'u' && kind != 'f') throw py::type_error("preduce: no DeviceArray of dtype " + dtype);
    return {bytes, {code, static_cast<std::uint8_t>(8 * bytes), 1}, kind};
}

// What a DLPack tensor of ours holds: its shape and strides, and the memory, kept alive
// until the consumer calls the deleter (which needs no GIL).
struct exported {
    dl_managed_tensor tensor{};
    std::int64_t shape = 0, stride = 1;
    std::shared_ptr<void> memory;
};

void delete_exported(dl_managed_tensor* t) { delete static_cast<exported*>(t->manager_ctx); }

} // namespace

device_array device_array::allocate(std::size_t count, const std::string& dtype, const void* near) {
    const dtype_info di = info_of(dtype);
#if PREDUCE_HAVE_CUDA
    if (!preduce::is_usable(preduce::backend::cuda))
        throw preduce::backend_unavailable("preduce: no GPU memory to allocate: " +
                                           preduce::unusable_reason(preduce::backend::cuda));
    int device = 0;
    if (near != nullptr) {
        cudaPointerAttributes a{};
        check(cudaPointerGetAttributes(&a, near), "cudaPointerGetAttributes");
        device = a.device;
    } else {
        check(cudaGetDevice(&device), "cudaGetDevice");
    }
    void* p = nullptr;
    {
        const on_device here(device);
        check(cudaMalloc(&p, count == 0 ? 1 : count * di.itemsize), "cudaMalloc");
    }
    device_array a;
    a.memory_ = std::shared_ptr<void>(p, [device](void* q) {
        int caller = 0;
        if (cudaGetDevice(&caller) == cudaSuccess && caller != device) cudaSetDevice(device);
        cudaFree(q);
        if (caller != device) cudaSetDevice(caller);
    });
    a.data_ = static_cast<char*>(p);
    a.count_ = count;
    a.itemsize_ = a.stride_ = di.itemsize;
    a.dtype_ = py::str(py::dtype(dtype));
    a.device_ = device;
    return a;
#else
    (void)count, (void)near, (void)di;
    no_cuda();
#endif
}

device_array device_array::view(std::size_t count, const std::string& dtype, std::size_t offset, std::size_t stride) const {
    device_array v = *this;
    v.data_ = data_ + offset;
    v.count_ = count;
    v.itemsize_ = info_of(dtype).itemsize;
    v.stride_ = stride;
    v.dtype_ = py::str(py::dtype(dtype));
    return v;
}

py::dict device_array::cuda_array_interface() const {
    const dtype_info di = info_of(dtype_);
    py::dict d;
    d["shape"] = py::make_tuple(count_);
    d["typestr"] = std::string(di.itemsize == 1 ? "|" : "<") + di.kind + std::to_string(di.itemsize);
    d["data"] = py::make_tuple(reinterpret_cast<std::uintptr_t>(data_), false);
    d["strides"] = stride_ == itemsize_ ? py::object(py::none()) : py::object(py::make_tuple(stride_));
    d["version"] = 3;
    d["stream"] = py::none();  // complete: the module waited for its work before returning the array
    return d;
}

py::capsule device_array::dlpack() const {
    auto* e = new exported;
    e->shape = static_cast<std::int64_t>(count_);
    e->stride = static_cast<std::int64_t>(stride_ / itemsize_);  // DLPack counts strides in elements
    e->memory = memory_;
    e->tensor.dl = {data_, {2, device_}, 1, info_of(dtype_).dl, &e->shape, &e->stride, 0};
    e->tensor.manager_ctx = e;
    e->tensor.deleter = delete_exported;
    // A capsule no consumer took frees the tensor itself; a consumer renames it "used_dltensor"
    // and calls the deleter when done.
    return py::capsule(&e->tensor, "dltensor", [](PyObject* capsule) {
        if (PyCapsule_IsValid(capsule, "dltensor")) {
            auto* t = static_cast<dl_managed_tensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
            t->deleter(t);
        }
    });
}

py::tuple device_array::dlpack_device() const { return py::make_tuple(2, device_); }

py::object device_array::get() const {
    py::array host(py::dtype(dtype_), std::vector<py::ssize_t>{static_cast<py::ssize_t>(count_)});
#if PREDUCE_HAVE_CUDA
    if (count_ != 0) {
        void* to = host.mutable_data();
        py::gil_scoped_release unlocked;
        check(cudaMemcpy2D(to, itemsize_, data_, stride_, itemsize_, count_, cudaMemcpyDeviceToHost),
              "cudaMemcpy2D (DeviceArray.get)");
    }
#endif
    return host;
}

void copy_to_device(void* to, const void* host, std::size_t bytes, void* stream) {
#if PREDUCE_HAVE_CUDA
    if (bytes == 0) return;
    const auto s = static_cast<cudaStream_t>(stream);
    check(cudaMemcpyAsync(to, host, bytes, cudaMemcpyHostToDevice, s), "cudaMemcpyAsync");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
#else
    (void)to, (void)host, (void)bytes, (void)stream;
    no_cuda();
#endif
}

void copy_on_device(void* to, std::size_t to_pitch, const void* from, std::size_t from_pitch, std::size_t width,
                    std::size_t rows, void* stream) {
#if PREDUCE_HAVE_CUDA
    if (rows == 0) return;
    const auto s = static_cast<cudaStream_t>(stream);
    check(cudaMemcpy2DAsync(to, to_pitch, from, from_pitch, width, rows, cudaMemcpyDeviceToDevice, s), "cudaMemcpy2DAsync");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
#else
    (void)to, (void)to_pitch, (void)from, (void)from_pitch, (void)width, (void)rows, (void)stream;
    no_cuda();
#endif
}

device_array to_device(py::handle host) {
    if (!PyObject_CheckBuffer(host.ptr()))
        throw py::type_error("preduce.to_device: give a host array (the buffer protocol: NumPy, memoryview, array.array)");
    py::array a = py::module_::import("numpy").attr("ascontiguousarray")(host).attr("reshape")(-1);
    const std::string dtype = py::str(a.dtype());
    info_of(dtype);  // a type the module has
    device_array d = device_array::allocate(static_cast<std::size_t>(a.size()), dtype, nullptr);
    copy_to_device(d.data(), a.data(), static_cast<std::size_t>(a.nbytes()), nullptr);
    return d;
}

void register_device_arrays(py::module_& m) {
    py::class_<device_array>(m, "DeviceArray",
                             "A 1-D array in GPU memory that preduce allocated: the results of reduce_segments and "
                             "reduce_batches over GPU input. Read in place through __cuda_array_interface__ or "
                             "DLPack (cupy.asarray, torch.from_dlpack, ...); get() copies it to a NumPy array.")
        .def_property_readonly("__cuda_array_interface__", &device_array::cuda_array_interface)
        .def("__dlpack__", [](const device_array& a, py::kwargs) { return a.dlpack(); },
             "DLPack capsule of the array (complete: no stream to wait for)")
        .def("__dlpack_device__", &device_array::dlpack_device)
        .def("get", &device_array::get, "a NumPy copy of the array")
        .def_property_readonly("shape", [](const device_array& a) { return py::make_tuple(a.size()); })
        .def_property_readonly("size", &device_array::size)
        .def_property_readonly("dtype", [](const device_array& a) { return py::dtype(a.dtype()); })
        .def_property_readonly("device", &device_array::device)
        .def("__len__", &device_array::size)
        .def("__repr__", [](const device_array& a) {
            return "preduce.DeviceArray(shape=(" + std::to_string(a.size()) + ",), dtype=" + a.dtype() +
                   ", device=" + std::to_string(a.device()) + ")";
        });
    m.def("to_device", &to_device, py::arg("x"),
          "a copy of the host array x (flattened, C order) in GPU memory of the current device, as a DeviceArray");
}

} // namespace preduce_python
