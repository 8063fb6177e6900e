#pragma once
// The arrays a source reads (one for a pointer, two for a zip source) and where each
// lives. Device, managed and pinned memory are read in place; pageable host memory is
// streamed through pinned chunks (host_staging.cuh), array by array, so a zip source may
// mix the two.
#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <string>

#include "preduce/cuda/check.hpp"
#include "preduce/errors.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda::detail {

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
            default: pageable[i] = true; break;
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

} // namespace preduce::cuda::detail
