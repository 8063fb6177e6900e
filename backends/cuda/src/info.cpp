#include "preduce/cuda/info.hpp"

#include <cuda_runtime_api.h>

namespace preduce::cuda {

namespace {
cudaError_t device_count(int& count) noexcept {
    count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    cudaGetLastError();
    return e;
}
} // namespace

bool device_available() noexcept {
    int count = 0;
    return device_count(count) == cudaSuccess && count > 0;
}

std::string unavailable_reason() {
    int count = 0;
    const cudaError_t e = device_count(count);
    if (e != cudaSuccess) return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
    if (count == 0) return "no CUDA device is visible";
    return {};
}

std::string device_name() {
    if (!device_available()) return {};
    int d = 0;
    cudaDeviceProp prop{};
    if (cudaGetDevice(&d) != cudaSuccess || cudaGetDeviceProperties(&prop, d) != cudaSuccess) {
        cudaGetLastError();
        return {};
    }
    return prop.name;
}

} // namespace preduce::cuda
