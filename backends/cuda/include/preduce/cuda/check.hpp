#pragma once
// Every CUDA runtime call goes through check(): failures become preduce exceptions
// naming the call, and sticky errors are not left behind for the next call to find.
#include <cuda_runtime_api.h>

#include <string>

#include "preduce/errors.hpp"

namespace preduce::cuda::detail {

[[noreturn]] inline void throw_cuda(cudaError_t e, const char* what) {
    cudaGetLastError();  // clear a non-sticky error so the next call starts clean
    const std::string msg = std::string("preduce cuda backend: ") + what + " failed: " + cudaGetErrorName(e) + " (" +
                            cudaGetErrorString(e) + ")";
    switch (e) {
    case cudaErrorMemoryAllocation: throw out_of_memory(msg + "; free device memory or reduce a smaller input");
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
    case cudaErrorInitializationError:
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorUnsupportedPtxVersion:
        throw backend_unavailable(msg + "; the cuda backend needs a GPU and a driver for the architectures it was built for "
                                        "(CMAKE_CUDA_ARCHITECTURES)");
    case cudaErrorInvalidValue:
    case cudaErrorIllegalAddress:
        throw device_error(msg + "; check that the pointer is valid device, managed or host memory of n elements");
    default: throw device_error(msg);
    }
}

inline void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw_cuda(e, what);
}

// Launches report configuration errors through cudaGetLastError.
inline void check_launch(const char* what) { check(cudaGetLastError(), what); }

} // namespace preduce::cuda::detail
