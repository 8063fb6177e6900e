#pragma once
// The arrays a source reads (one for a pointer, two for a zip source) and where each
// lives, found once per call. Device, managed and pinned memory are read in place;
// pageable host memory is streamed through pinned chunks (staging/host_staging.cuh), array
// by array, so a zip source may mix the two.
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

#include "preduce/cuda/runtime/check.hpp"
#include "preduce/detail/runtime/residence.hpp"
#include "preduce/errors.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda::detail {

// Whether the host can read the byte at p. CUDA reports memory it does not know (pageable
// host memory, but also a pointer already given to cudaFree or cudaFreeHost, or garbage)
// as "unregistered"; reading a freed one on the host would crash the process, so the
// kernel is asked instead (EFAULT, no signal). Where the probe itself is not allowed
// (seccomp), the answer is "readable": such memory is then treated as pageable host
// memory, and a freed pointer is not caught.
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

// Where each array of a source lives, asked of CUDA once per call (classify) and handed to
// every layer that needs it: the device to run on, which arrays to stage, which to refuse.
// The kinds are the front end's (detail/runtime/residence.hpp): host is pageable host memory.
using ::preduce::detail::memory_kind;

template <std::size_t N>
struct placement {
    std::array<memory_kind, N> where{};
    int owner = -1;  // the GPU whose memory the device arrays are; -1: no device array

    bool any(memory_kind p) const noexcept {
        for (memory_kind w : where)
            if (w == p) return true;
        return false;
    }
    // Arrays the GPU cannot read in place and the host path must stream through pinned chunks.
    std::array<bool, N> pageable() const noexcept {
        std::array<bool, N> out{};
        for (std::size_t i = 0; i < N; ++i) out[i] = where[i] == memory_kind::host;
        return out;
    }
};

// One cudaPointerGetAttributes per array. Memory CUDA does not know is pageable host memory
// if the host can read it, and refused otherwise (freed memory, garbage); device arrays of two
// different GPUs are refused. Call with n > 0: an empty input reads nothing.
template <std::size_t N>
placement<N> classify_arrays(const std::array<const void*, N>& arrays) {
    placement<N> out;
    for (std::size_t i = 0; i < N; ++i) {
        cudaPointerAttributes attr{};
        check(cudaPointerGetAttributes(&attr, arrays[i]), "cudaPointerGetAttributes");
        switch (attr.type) {
        case cudaMemoryTypeDevice:
            if (out.owner >= 0 && out.owner != attr.device)
                throw invalid_argument("preduce::cuda: the two inputs are in the memory of different GPUs (" +
                                       std::to_string(out.owner) + " and " + std::to_string(attr.device) +
                                       "); copy one to the other's GPU");
            out.where[i] = memory_kind::device;
            out.owner = attr.device;
            break;
        case cudaMemoryTypeManaged: out.where[i] = memory_kind::managed; break;
        case cudaMemoryTypeHost: out.where[i] = memory_kind::pinned; break;
        default:
            if (!host_readable(arrays[i])) throw_unreadable(arrays[i]);
            out.where[i] = memory_kind::host;
            break;
        }
    }
    return out;
}

template <class S>
placement<columns<S>::count> classify(const S& src) {
    return classify_arrays<columns<S>::count>(columns<S>::of(src));
}

// Whether pinned host memory at p is mapped into the current device's address space (it
// is for cudaMallocHost and portable registrations; cudaHostRegister without
// cudaHostRegisterPortable maps it for the registering device only). The one question a
// placement cannot answer for every GPU at once: the multi-GPU path asks it per GPU.
inline bool mapped_here(const void* p) {
    cudaPointerAttributes attr{};
    check(cudaPointerGetAttributes(&attr, p), "cudaPointerGetAttributes");
    return attr.devicePointer != nullptr;
}

// Makes `device` current for the scope's lifetime (switching back afterwards); -1 leaves
// the current device as it is.
class device_scope {
public:
    explicit device_scope(int device) {
        if (device < 0) return;
        check(cudaGetDevice(&previous_), "cudaGetDevice");
        if (device == previous_) return;
        check(cudaSetDevice(device), "cudaSetDevice");
        switched_ = true;
    }
    device_scope(const device_scope&) = delete;
    device_scope& operator=(const device_scope&) = delete;
    ~device_scope() {
        if (switched_) cudaSetDevice(previous_);
    }

private:
    int previous_ = 0;
    bool switched_ = false;
};

// For reads in place (reduce_async): every array must be memory the current GPU can read.
// Pageable host memory qualifies only where the GPU reads it through the host's page tables
// (cudaDevAttrPageableMemoryAccess: HMM or ATS); elsewhere a kernel would fault on it, and
// an illegal-address fault ends the CUDA context for every later call of the process.
template <std::size_t N>
void require_device_readable(const placement<N>& where, const char* api) {
    if (!where.any(memory_kind::host)) return;
    int device = 0, pageable_access = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    check(cudaDeviceGetAttribute(&pageable_access, cudaDevAttrPageableMemoryAccess, device), "cudaDeviceGetAttribute");
    if (pageable_access == 0)
        throw invalid_argument(std::string(api) +
                               " reads its input in place, and this input is pageable host memory, which this GPU "
                               "cannot read; pass device, managed or pinned memory (cudaMallocHost, "
                               "cudaHostRegister), or call preduce::cuda::reduce, which streams pageable memory");
}

} // namespace preduce::cuda::detail
