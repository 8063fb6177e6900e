#pragma once
// GPU memory that the module allocates: preduce.DeviceArray, the results of many-results calls
// over GPU input (they stay on the GPU), and preduce.to_device's copies of host arrays. Other
// libraries read a DeviceArray in place through __cuda_array_interface__ (version 3) or DLPack
// (__dlpack__, __dlpack_device__); get() copies it into a NumPy array. A DeviceArray is 1-D
// with a NumPy dtype, and may be a strided view into memory it shares (the indices of
// argmin/argmax results, read where the library wrote them). Built on the CUDA runtime where
// this build has the cuda backend; without it, making one raises preduce.BackendUnavailable.
#include <pybind11/pybind11.h>

#include <cstddef>
#include <memory>
#include <string>

namespace preduce_python {

namespace py = pybind11;

class device_array {
public:
    // count elements of NumPy dtype `dtype`, on the device that holds `near` (a device
    // pointer), or on the current device when near is null.
    static device_array allocate(std::size_t count, const std::string& dtype, const void* near);
    // count elements of `dtype` in this array's memory, the first at byte `offset`, `stride`
    // bytes apart.
    device_array view(std::size_t count, const std::string& dtype, std::size_t offset, std::size_t stride) const;

    void* data() const noexcept { return data_; }
    std::size_t size() const noexcept { return count_; }
    const std::string& dtype() const noexcept { return dtype_; }
    std::size_t itemsize() const noexcept { return itemsize_; }
    std::size_t stride() const noexcept { return stride_; }
    int device() const noexcept { return device_; }

    py::dict cuda_array_interface() const;
    py::capsule dlpack() const;
    py::tuple dlpack_device() const;
    py::object get() const;  // a NumPy copy

private:
    std::shared_ptr<void> memory_;  // cudaFree'd when the last array or DLPack tensor on it goes
    char* data_ = nullptr;
    std::size_t count_ = 0, itemsize_ = 0, stride_ = 0;
    std::string dtype_;
    int device_ = 0;
};

// Copies on the GPU machine's runtime, each waiting for the stream (null: the legacy default
// stream) before it returns.
void copy_to_device(void* to, const void* host, std::size_t bytes, void* stream);
// rows pieces of `width` bytes: from `from` every from_pitch bytes to `to` every to_pitch bytes.
void copy_on_device(void* to, std::size_t to_pitch, const void* from, std::size_t from_pitch, std::size_t width,
                    std::size_t rows, void* stream);

// A host NumPy array (any layout) copied into a new DeviceArray on the current device.
device_array to_device(py::handle host);

// preduce.DeviceArray and preduce.to_device.
void register_device_arrays(py::module_& m);

} // namespace preduce_python
