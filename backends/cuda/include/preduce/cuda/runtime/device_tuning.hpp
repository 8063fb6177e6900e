#pragma once
// The tuning table's entry for a GPU (tuning.hpp): the one place that maps a device to its
// entry, from its compute capability (cudaDeviceProp::major and minor, asked with
// cudaDeviceGetAttribute, which does not fill the whole cudaDeviceProp). The answer is kept
// per device ordinal, so after a device's first call a lookup is one atomic load.
#include <cuda_runtime_api.h>

#include <array>
#include <atomic>
#include <cstddef>

#include "preduce/cuda/runtime/check.hpp"
#include "preduce/cuda/tuning.hpp"

namespace preduce::cuda::tuning {

inline const table& for_device(int device) {
    static std::array<std::atomic<const table*>, 64> chosen{};  // ordinals past 64 ask each time
    std::atomic<const table*>* slot =
        device >= 0 && static_cast<std::size_t>(device) < chosen.size() ? &chosen[static_cast<std::size_t>(device)] : nullptr;
    if (slot != nullptr)
        if (const table* t = slot->load(std::memory_order_acquire)) return *t;
    int major = 0, minor = 0;
    ::preduce::cuda::detail::check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device),
                                   "cudaDeviceGetAttribute (compute capability)");
    ::preduce::cuda::detail::check(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device),
                                   "cudaDeviceGetAttribute (compute capability)");
    const table& t = pick(major, minor);
    if (slot != nullptr) slot->store(&t, std::memory_order_release);
    return t;
}

} // namespace preduce::cuda::tuning
