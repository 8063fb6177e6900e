#pragma once
// The arrays a source reads (one for a pointer, two for a zip source) and where each
// lives. Device, managed and pinned memory are read in place; pageable host memory is
// streamed through pinned chunks (host_staging.cuh), array by array, so a zip source may
// mix the two.
#include <cuda_runtime_api.h>

#if defined(__linux__)
#include <sys/uio.h>
#include <unistd.h>
#endif

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <string>

#include "preduce/cuda/check.hpp"
#include "preduce/errors.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda::detail {

// Whether the host can read the byte at p. CUDA reports memory it does not know (pageable
// host memory, but also a pointer already given to cudaFree or cudaFreeHost, or garbage)
// as "unregistered"; reading a freed one on the host would crash the process, so the
// kernel is asked instead (EFAULT, no signal). Where the probe itself is not allowed
// (seccomp), the answer is "readable", as before the probe existed.
inline bool host_readable(const void* p) noexcept {
#if defined(__linux__)
    char sink = 0;
    iovec local{&sink, 1};
    iovec remote{const_cast<void*>(p), 1};
    if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == 1) return true;
    return errno != EFAULT;
#else
    (void)p;
    return true;
#endif
}

[[noreturn]] inline void throw_unreadable(const void* p) {
    char where[32];
    std::snprintf(where, sizeof where, "%p", p);
    throw invalid_argument(std::string("preduce::cuda: the input at ") + where +
                           " is neither memory CUDA knows (device, managed or pinned) nor readable host memory: "
                           "freed already (cudaFree, cudaFreeHost), or not a pointer to the data");
}

template <class S>
struct columns;

template <class T>
struct columns<const T*> {
    static constexpr std::size_t count = 1;
    using pointers = std::array<const void*, 1>;
    static constexpr std::array<std::size_t, 1> element_bytes{sizeof(T)};
    static pointers of(const T* s) { return {s}; }
    static const T* make(const pointers& p) { return static_cast<const T*>(p[0]); }
};

template <class A, class B>
struct columns<zip_source<A, B>> {
    static constexpr std::size_t count = 2;
    using pointers = std::array<const void*, 2>;
    static constexpr std::array<std::size_t, 2> element_bytes{sizeof(A), sizeof(B)};
    static pointers of(const zip_source<A, B>& s) { return {s.first, s.second}; }
    static zip_source<A, B> make(const pointers& p) {
        return {static_cast<const A*>(p[0]), static_cast<const B*>(p[1])};
    }
};

// Finds which arrays are pageable and makes the GPU that owns the device arrays current
// for the scope's lifetime (switching back afterwards).
template <std::size_t N>
class device_scope {
public:
    // empty: n == 0, nothing is read, nothing to locate.
    device_scope(const std::array<const void*, N>& arrays, bool empty) {
        check(cudaGetDevice(&previous_), "cudaGetDevice");
        if (empty) return;
        int owner = -1;
        for (std::size_t i = 0; i < N; ++i) {
            cudaPointerAttributes attr{};
            check(cudaPointerGetAttributes(&attr, arrays[i]), "cudaPointerGetAttributes");
            switch (attr.type) {
            case cudaMemoryTypeDevice:
                if (owner >= 0 && owner != attr.device)
                    throw invalid_argument("preduce::cuda: the two inputs are in the memory of different GPUs (" +
                                           std::to_string(owner) + " and " + std::to_string(attr.device) +
                                           "); copy one to the other's GPU");
                owner = attr.device;
                break;
            case cudaMemoryTypeManaged:
            case cudaMemoryTypeHost: break;  // the GPU reads these directly
            default:
                if (!host_readable(arrays[i])) throw_unreadable(arrays[i]);
                pageable[i] = true;
                break;
            }
        }
        if (owner >= 0 && owner != previous_) {
            check(cudaSetDevice(owner), "cudaSetDevice");
            switched_ = true;
        }
    }
    device_scope(const device_scope&) = delete;
    device_scope& operator=(const device_scope&) = delete;
    ~device_scope() {
        if (switched_) cudaSetDevice(previous_);
    }

    bool any_pageable() const {
        for (bool p : pageable)
            if (p) return true;
        return false;
    }
    std::array<bool, N> pageable{};

private:
    int previous_ = 0;
    bool switched_ = false;
};

// For reads in place (reduce_async): every array must be memory the current GPU can read.
// Pageable host memory qualifies only where the GPU reads it through the host's page tables
// (cudaDevAttrPageableMemoryAccess: HMM or ATS); elsewhere a kernel would fault on it, and
// an illegal-address fault ends the CUDA context for every later call of the process.
template <std::size_t N>
void require_device_readable(const std::array<const void*, N>& arrays, std::size_t n, const char* api) {
    if (n == 0) return;
    for (const void* p : arrays) {
        cudaPointerAttributes attr{};
        check(cudaPointerGetAttributes(&attr, p), "cudaPointerGetAttributes");
        if (attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged || attr.type == cudaMemoryTypeHost)
            continue;
        if (!host_readable(p)) throw_unreadable(p);
        int device = 0, pageable_access = 0;
        check(cudaGetDevice(&device), "cudaGetDevice");
        check(cudaDeviceGetAttribute(&pageable_access, cudaDevAttrPageableMemoryAccess, device), "cudaDeviceGetAttribute");
        if (pageable_access == 0)
            throw invalid_argument(std::string(api) +
                                   " reads its input in place, and this input is pageable host memory, which this GPU "
                                   "cannot read; pass device, managed or pinned memory (cudaMallocHost, "
                                   "cudaHostRegister), or call preduce::cuda::reduce, which streams pageable memory");
    }
}

} // namespace preduce::cuda::detail
