#include "preduce/cuda/info.hpp"

#include <cuda_runtime_api.h>

namespace preduce::cuda::info {

namespace {
// cudaGetDeviceCount's failures (no driver, no device) are not sticky, but the runtime also
// records them as the last error, where the application would find them later as if its
// own call had failed: a failure this call caused is taken back with cudaGetLastError,
// and only then, so an error the application left pending stays pending.
cudaError_t device_count(int& count) noexcept {
    count = 0;
    const bool pending = cudaPeekAtLastError() != cudaSuccess;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess && !pending) cudaGetLastError();
    return e;
}
} // namespace

bool usable() noexcept {
    int count = 0;
    return device_count(count) == cudaSuccess && count > 0;
}

std::string unusable_reason() {
    int count = 0;
    const cudaError_t e = device_count(count);
    if (e != cudaSuccess) return std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
    if (count == 0) return "no CUDA device is visible";
    return {};
}

std::string detail(const options&) {
    if (!usable()) return "no device";
    const bool pending = cudaPeekAtLastError() != cudaSuccess;
    int d = 0;
    cudaDeviceProp prop{};
    if (cudaGetDevice(&d) != cudaSuccess || cudaGetDeviceProperties(&prop, d) != cudaSuccess) {
        if (!pending) cudaGetLastError();
        return "no device";
    }
    return prop.name;
}

} // namespace preduce::cuda::info
