#pragma once
// The CUDA backend's header-only entry points (compile with nvcc):
//   preduce::cuda::reduce(data, n, reducer[, options])          -> result on the host
//   preduce::cuda::reduce_async(data, n, reducer, d_result, stream) -> result left in device memory
// data may be device, managed, pinned host or pageable host memory. Device, managed and
// pinned memory are read in place; pageable memory is streamed through pinned chunks.
#include <cuda_runtime_api.h>

#include <cstddef>

#include "preduce/cuda/check.hpp"
#include "preduce/cuda/dispatch.cuh"
#include "preduce/cuda/host_staging.cuh"
#include "preduce/cuda/memory.hpp"
#include "preduce/options.hpp"

namespace preduce::cuda {

namespace detail {

enum class residence { device, pageable_host };

// Where the data lives; switches the current device to the one owning a device pointer.
class device_scope {
public:
    explicit device_scope(const void* p) {
        check(cudaGetDevice(&previous_), "cudaGetDevice");
        cudaPointerAttributes attr{};
        check(cudaPointerGetAttributes(&attr, p), "cudaPointerGetAttributes");
        switch (attr.type) {
        case cudaMemoryTypeDevice:
            if (attr.device != previous_) {
                check(cudaSetDevice(attr.device), "cudaSetDevice");
                switched_ = true;
            }
            where = residence::device;
            break;
        case cudaMemoryTypeManaged:
        case cudaMemoryTypeHost: where = residence::device; break;  // the GPU reads these directly
        default: where = residence::pageable_host; break;
        }
    }
    device_scope(const device_scope&) = delete;
    device_scope& operator=(const device_scope&) = delete;
    ~device_scope() {
        if (switched_) cudaSetDevice(previous_);
    }
    residence where = residence::pageable_host;

private:
    int previous_ = 0;
    bool switched_ = false;
};

// One pinned result slot per host thread: the result's copy back is then a plain DMA.
template <class Result>
Result* result_slot() {
    thread_local pinned_buffer slot(sizeof(Result) < 256 ? 256 : sizeof(Result));
    return slot.as<Result>();
}

} // namespace detail

// Asynchronous: enqueues the reduction of device-accessible data on `stream` and leaves
// the finished result in *d_result (device memory). Returns before the GPU is done.
template <class R>
void reduce_async(const typename R::value_type* data, std::size_t n, const R& reducer,
                  typename R::result_type* d_result, cudaStream_t stream = cudaStreamPerThread) {
    detail::enqueue_reduce(reducer, data, n, d_result, stream);
}

// Device workspace bytes reduce_async(..., workspace, bytes, stream) needs for n elements
// (0 for inputs a single block reduces), for callers that keep their own scratch memory.
template <class R>
std::size_t workspace_bytes(std::size_t n) {
    return detail::workspace_bytes<R>(n);
}

// As above with the caller's device workspace of at least workspace_bytes<R>(n) bytes: no
// allocation at all, and the workspace may be reused once the stream has passed this call.
template <class R>
void reduce_async(const typename R::value_type* data, std::size_t n, const R& reducer,
                  typename R::result_type* d_result, void* workspace, std::size_t workspace_size,
                  cudaStream_t stream) {
    detail::enqueue_reduce(reducer, data, n, d_result, stream, workspace, workspace_size);
}

template <class R>
typename R::result_type reduce(const typename R::value_type* data, std::size_t n, const R& reducer,
                               const options& opts = {}) {
    using Result = typename R::result_type;
    cudaStream_t stream = opts.stream != nullptr ? static_cast<cudaStream_t>(opts.stream) : cudaStreamPerThread;
    const detail::device_scope scope(n == 0 ? static_cast<const void*>(&reducer) : data);
    detail::device_buffer d_result(sizeof(Result), stream);
    if (scope.where == detail::residence::device || n == 0)
        detail::enqueue_reduce(reducer, data, n, d_result.as<Result>(), stream);
    else
        detail::enqueue_reduce_from_host(reducer, data, n, d_result.as<Result>(), stream);
    Result* host = detail::result_slot<Result>();
    detail::check(cudaMemcpyAsync(host, d_result.as<Result>(), sizeof(Result), cudaMemcpyDeviceToHost, stream),
                  "cudaMemcpyAsync (result)");
    detail::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (kernel errors surface here)");
    return *host;
}

} // namespace preduce::cuda
