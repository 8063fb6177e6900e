// stage() for the CUDA residency variants: every input (and every output) is one growing
// cudaMalloc (device) or cudaMallocManaged (managed) buffer per slot.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/under_test.hpp"

namespace {
struct gpu_copy {
    void* ptr = nullptr;
    std::size_t capacity = 0;
    ~gpu_copy() {
        if (ptr != nullptr) cudaFree(ptr);
    }
    const void* upload(const void* data, std::size_t bytes) {
        if (bytes > capacity) {
            if (ptr != nullptr) cudaFree(ptr);
            ptr = nullptr;
#if defined(PREDUCE_TEST_RESIDENCY_managed)
            const cudaError_t e = cudaMallocManaged(&ptr, bytes);
#else
            const cudaError_t e = cudaMalloc(&ptr, bytes);
#endif
            if (e != cudaSuccess) throw std::runtime_error(std::string("test staging: ") + cudaGetErrorString(e));
            capacity = bytes;
        }
        const cudaError_t e = cudaMemcpy(ptr, data, bytes, cudaMemcpyDefault);
        if (e != cudaSuccess) throw std::runtime_error(std::string("test staging copy: ") + cudaGetErrorString(e));
        return ptr;
    }
};
} // namespace

const void* preduce::test::stage(const void* data, std::size_t bytes, int slot) {
    static gpu_copy copy[3];
    return copy[slot < 0 || slot > 2 ? 0 : slot].upload(data, bytes);
}

void* preduce::test::stage_output(std::size_t bytes) {
    static gpu_copy out;
    static std::vector<unsigned char> pattern;
    pattern.assign(bytes, 0xAB);  // never zero: a result left unwritten shows
    return const_cast<void*>(out.upload(pattern.data(), bytes));
}

void preduce::test::fetch(void* host, const void* staged, std::size_t bytes) {
    if (bytes == 0) return;
    const cudaError_t e = cudaMemcpy(host, staged, bytes, cudaMemcpyDefault);
    if (e != cudaSuccess) throw std::runtime_error(std::string("test fetch: ") + cudaGetErrorString(e));
}

std::string preduce::test::residency() {
#if defined(PREDUCE_TEST_RESIDENCY_managed)
    return "managed";
#else
    return "device";
#endif
}
