#pragma once
// Owning handles for the device and pinned host memory the backend uses, so that an
// exception thrown half-way through a reduction leaks nothing.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "preduce/cuda/check.hpp"

namespace preduce::cuda::detail {

// Stream-ordered device allocation (cudaMallocAsync): cheap after the pool warms up, and
// safe to use from several host threads and streams at once.
class device_buffer {
public:
    device_buffer() = default;
    device_buffer(std::size_t bytes, cudaStream_t stream) : stream_(stream) {
        if (bytes != 0) check(cudaMallocAsync(&ptr_, bytes, stream), "cudaMallocAsync");
    }
    device_buffer(device_buffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), stream_(o.stream_) {}
    device_buffer& operator=(device_buffer&& o) noexcept {
        std::swap(ptr_, o.ptr_);
        std::swap(stream_, o.stream_);
        return *this;
    }
    ~device_buffer() {
        if (ptr_ != nullptr) cudaFreeAsync(ptr_, stream_);  // errors here cannot be reported; the pool reclaims
    }
    template <class T>
    T* as() const noexcept { return static_cast<T*>(ptr_); }

private:
    void* ptr_ = nullptr;
    cudaStream_t stream_ = nullptr;
};

class pinned_buffer {
public:
    pinned_buffer() = default;
    explicit pinned_buffer(std::size_t bytes) {
        if (bytes != 0) check(cudaMallocHost(&ptr_, bytes), "cudaMallocHost");
    }
    pinned_buffer(pinned_buffer&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)) {}
    pinned_buffer& operator=(pinned_buffer&& o) noexcept {
        std::swap(ptr_, o.ptr_);
        return *this;
    }
    ~pinned_buffer() {
        if (ptr_ != nullptr) cudaFreeHost(ptr_);
    }
    template <class T>
    T* as() const noexcept { return static_cast<T*>(ptr_); }

private:
    void* ptr_ = nullptr;
};

class event {
public:
    event() { check(cudaEventCreateWithFlags(&e_, cudaEventDisableTiming), "cudaEventCreate"); }
    event(const event&) = delete;
    event& operator=(const event&) = delete;
    ~event() { cudaEventDestroy(e_); }
    cudaEvent_t get() const noexcept { return e_; }

private:
    cudaEvent_t e_{};
};

class stream {
public:
    stream() { check(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "cudaStreamCreate"); }
    stream(const stream&) = delete;
    stream& operator=(const stream&) = delete;
    ~stream() { cudaStreamDestroy(s_); }
    cudaStream_t get() const noexcept { return s_; }

private:
    cudaStream_t s_{};
};

} // namespace preduce::cuda::detail
