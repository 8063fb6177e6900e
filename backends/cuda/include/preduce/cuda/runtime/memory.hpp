#pragma once
// Owning handles for the device and pinned host memory the backend uses, so that an
// exception thrown half-way through a reduction leaks nothing.
#include <cuda_runtime_api.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "preduce/cuda/runtime/check.hpp"

namespace preduce::cuda::detail {

// preduce's own stream-ordered memory pool on `device`, created once. The default pool
// gives memory back to the driver at every synchronisation (release threshold 0), which
// makes each reduction pay a real cudaMalloc, longer than a small reduction takes
// (docs/cuda-tuning.md); changing the default pool's threshold would change the
// application's allocator, so preduce keeps its own.
inline cudaMemPool_t workspace_pool(int device) {
    thread_local int cached_device = -1;  // the common case, without the lock
    thread_local cudaMemPool_t cached_pool{};
    if (device == cached_device) return cached_pool;
    static std::mutex m;
    static std::unordered_map<int, cudaMemPool_t> pools;
    const std::lock_guard<std::mutex> lock(m);
    auto it = pools.find(device);
    if (it != pools.end()) {
        cached_device = device;
        return cached_pool = it->second;
    }
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    cudaMemPool_t pool{};
    check(cudaMemPoolCreate(&pool, &props), "cudaMemPoolCreate");
    std::uint64_t keep = std::numeric_limits<std::uint64_t>::max();
    check(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep), "cudaMemPoolSetAttribute");
    pools.emplace(device, pool);
    cached_device = device;
    return cached_pool = pool;
}

// Stream-ordered device allocation from workspace_pool: cheap once the pool holds the
// memory, and safe to use from several host threads and streams at once.
class device_buffer {
public:
    device_buffer() = default;
    device_buffer(std::size_t bytes, cudaStream_t stream) : stream_(stream) {
        if (bytes == 0) return;
        int device = 0;
        check(cudaGetDevice(&device), "cudaGetDevice");
        check(cudaMallocFromPoolAsync(&ptr_, bytes, workspace_pool(device), stream), "cudaMallocFromPoolAsync");
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

// One pinned result slot per host thread and type. Every GPU can write it (pinned memory is
// mapped for all devices under unified addressing), so the last kernel of a reduction writes
// its result there and the host reads it once it has landed (await_result) or the stream is
// synchronised: no copy back.
template <class Result>
Result* result_slot() {
    thread_local pinned_buffer slot(sizeof(Result) < 256 ? 256 : sizeof(Result));
    return slot.as<Result>();
}

// The host's wait for a result that the last kernel on a stream writes into a result slot:
// once, by store_whole, in whole 4-byte words where the type has them (awaitable_v). The
// words land in host memory before the stream reports the kernel complete, so waiting for
// them returns sooner than cudaStreamSynchronize, by a sizeable part of a small call
// (docs/cuda-tuning.md). prime_result marks every word of the slot before the launch;
// await_result spins until no word holds the mark, for at most result_spin_budget, and
// otherwise synchronizes the stream, which also reports a failed kernel's error (a result
// whose word equals the mark only takes that longer path). A long reduction thus blocks as
// the application's device flags ask, after the budget. Results without whole words are not
// marked, and their wait is the synchronization.
inline constexpr std::uint32_t unwritten_word = 0x7fa5a5a5u;  // a NaN as a float
inline constexpr std::chrono::microseconds result_spin_budget{50};
template <class Result>
inline constexpr bool awaitable_v = sizeof(Result) % 4 == 0 && alignof(Result) >= 4;

template <class Result>
void prime_result(Result* slot) {
    if constexpr (awaitable_v<Result>) {
        volatile std::uint32_t* w = reinterpret_cast<volatile std::uint32_t*>(slot);
        for (std::size_t i = 0; i < sizeof(Result) / 4; ++i) w[i] = unwritten_word;
    }
}

template <class Result>
void await_result(const Result* slot, cudaStream_t stream) {
    if constexpr (awaitable_v<Result>) {
        const volatile std::uint32_t* w = reinterpret_cast<const volatile std::uint32_t*>(slot);
        const auto landed = [w] {
            for (std::size_t i = 0; i < sizeof(Result) / 4; ++i)
                if (w[i] == unwritten_word) return false;
            return true;
        };
        const auto deadline = std::chrono::steady_clock::now() + result_spin_budget;
        for (unsigned spins = 1;; ++spins) {
            if (landed()) {
                std::atomic_thread_fence(std::memory_order_acquire);
                return;
            }
            if (spins % 64 == 0 && std::chrono::steady_clock::now() > deadline) break;
        }
    }
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (kernel errors surface here)");
}

} // namespace preduce::cuda::detail
