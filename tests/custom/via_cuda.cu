// The header-only body through nvcc, on pageable host memory (the staging path) and on
// device memory (read in place). Its main (support/cuda_main.cpp) skips where no GPU is usable.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "preduce/cuda/reduce.cuh"

namespace custom_test {
inline std::vector<std::string> residencies() { return {"pageable host", "device"}; }

inline const void* put(const void* host, std::size_t bytes, int slot, std::size_t residency) {
    if (residency == 0) return host;
    struct buffer {
        void* ptr = nullptr;
        std::size_t size = 0;
        ~buffer() {
            if (ptr != nullptr) cudaFree(ptr);
        }
    };
    static buffer slots[2];
    buffer& b = slots[slot == 0 ? 0 : 1];
    if (b.size < bytes) {
        if (b.ptr != nullptr) cudaFree(b.ptr);
        b.ptr = nullptr;
        b.size = 0;
        if (cudaMalloc(&b.ptr, bytes) != cudaSuccess) throw std::runtime_error("cudaMalloc failed in the test");
        b.size = bytes;
    }
    if (cudaMemcpy(b.ptr, host, bytes, cudaMemcpyHostToDevice) != cudaSuccess)
        throw std::runtime_error("cudaMemcpy failed in the test");
    return b.ptr;
}

} // namespace custom_test

#define PREDUCE_CUSTOM_BACKEND preduce::cuda
#include "custom/cases.hpp"
