#pragma once
// Every CUDA runtime call goes through check(): failures become preduce exceptions naming
// the call.
//
// The runtime's last-error slot (cudaGetLastError) belongs to the application: preduce
// never reads it to learn about its own calls (their return values say; kernel launches go
// through grid/launch.cuh's launch(), which returns the launch's own status) and never
// clears an error the application left there. A failing call of preduce's own also lands
// in that slot; error_state_guard, held by every entry point, takes it back out when the
// call ends in an exception and the slot was clean when the call began.
#include <cuda_runtime_api.h>

#include <exception>
#include <string>

#include "preduce/errors.hpp"

namespace preduce::cuda::detail {

[[noreturn]] inline void throw_cuda(cudaError_t e, const char* what) {
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

// Held for the length of one call into the backend on the calling thread.
class error_state_guard {
public:
    error_state_guard() noexcept
        : clean_(cudaPeekAtLastError() == cudaSuccess), exceptions_(std::uncaught_exceptions()) {}
    error_state_guard(const error_state_guard&) = delete;
    error_state_guard& operator=(const error_state_guard&) = delete;
    ~error_state_guard() {
        // A non-sticky error of ours, reported as an exception: not left for the
        // application to find later as if its own call had failed.
        if (clean_ && std::uncaught_exceptions() > exceptions_) cudaGetLastError();
    }

private:
    bool clean_;
    int exceptions_;
};

} // namespace preduce::cuda::detail
