#include "preduce/cuda/info.hpp"

#include <cuda_runtime_api.h>

#include <atomic>
#include <string>

#include "preduce/detail/routing/backend_library.hpp"
#include "preduce/errors.hpp"

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

int visible_devices() noexcept {
    int count = 0;
    return device_count(count) == cudaSuccess ? count : 0;
}

void check_options(const options& opts) {
    if (opts.gpus == 1) return;
    if (opts.stream != nullptr)
        throw invalid_argument("preduce::cuda: options::stream is set together with options::gpus = " +
                               std::to_string(opts.gpus) +
                               "; a stream belongs to one GPU: leave stream unset to split over GPUs, or use gpus = 1");
    const int count = visible_devices();
    if (opts.gpus > count)
        throw invalid_argument("preduce::cuda: options::gpus = " + std::to_string(opts.gpus) + " but " +
                               std::to_string(count) + " GPU" + (count == 1 ? " is" : "s are") +
                               " visible (CUDA_VISIBLE_DEVICES selects them); use at most " + std::to_string(count) +
                               ", or 0 for all of them");
}

bool usable() noexcept {
    // Asked on every call of the front end: once a device has been seen, the answer stays
    // (the visible devices of a process do not change after CUDA starts).
    static std::atomic<bool> seen{false};
    if (seen.load(std::memory_order_relaxed)) return true;
    int count = 0;
    const bool ok = device_count(count) == cudaSuccess && count > 0;
    if (ok) seen.store(true, std::memory_order_relaxed);
    return ok;
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

namespace preduce::cuda {
PREDUCE_DEFINE_BACKEND_LIBRARY
} // namespace preduce::cuda
