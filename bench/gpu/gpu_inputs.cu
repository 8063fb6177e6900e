#include "gpu_inputs.cuh"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <type_traits>
#include <typeindex>
#include <utility>

#include "preduce/detail/core/numeric.hpp"
#include "preduce/half.hpp"

namespace preduce::bench_gpu {

namespace {
constexpr std::size_t min_pool_bytes = std::size_t{1} << 30;  // 1 GiB: ~17 L2s of rotation

__device__ std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ull; x ^= x >> 27; x *= 0x94d049bb133111ebull; return x ^ (x >> 31);
}

// Floats in [-1, 1) \ {0} (16-bit floats rounded from such floats); 32- and 64-bit
// integers in [-1000, 1000] \ {0}; 8- and 16-bit integers uniform over the type but 0.
template <class T>
__global__ void fill(T* p, std::size_t n, std::uint64_t seed) {
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x) {
        const std::uint64_t r = mix(seed + i);
        const double u = static_cast<double>(r >> 11) * 0x1.0p-52 - 1.0;
        if constexpr (detail::is_half_v<T>) {
            const T v = detail::round_from_float<T>(static_cast<float>(u));
            p[i] = (v.bits & 0x7fffu) == 0 ? detail::round_from_float<T>(1.0f) : v;
        } else {
            T v;
            if constexpr (std::is_floating_point_v<T>) v = static_cast<T>(u);
            else if constexpr (sizeof(T) <= 2) v = static_cast<T>(r);
            else v = static_cast<T>(static_cast<std::int64_t>(r % 2001) - 1000);
            p[i] = v == T(0) ? T(1) : v;
        }
    }
}

struct pool {
    void* base = nullptr;
    std::size_t bytes = 0;
};
std::map<std::pair<std::type_index, int>, pool>& pools() {
    static std::map<std::pair<std::type_index, int>, pool> m;
    return m;
}

} // namespace

template <class T>
const T* window(std::size_t n, std::size_t iteration, int slot) {
    pool& p = pools()[{std::type_index(typeid(T)), slot}];
    const std::size_t need = n * sizeof(T);
    if (p.bytes < need || p.bytes < min_pool_bytes) {
        if (p.base != nullptr) check(cudaFree(p.base), "cudaFree");
        p.bytes = need > min_pool_bytes ? need : min_pool_bytes;
        check(cudaMalloc(&p.base, p.bytes), "cudaMalloc pool");
        fill<T><<<1024, 256>>>(static_cast<T*>(p.base), p.bytes / sizeof(T), 0x5eed + (std::uint64_t{1} << 40) * slot);
        check(cudaDeviceSynchronize(), "fill");
    }
    const std::size_t stride = (need + 255) / 256 * 256;  // keep every window 256-byte aligned
    const std::size_t windows = stride == 0 ? 1 : (p.bytes - need) / stride + 1;
    return reinterpret_cast<const T*>(static_cast<const char*>(p.base) + (iteration % windows) * stride);
}

void release_pools() {
    for (auto& [type, p] : pools())
        if (p.base != nullptr) cudaFree(p.base);
    pools().clear();
}

template const float* window<float>(std::size_t, std::size_t, int);
template const double* window<double>(std::size_t, std::size_t, int);
template const std::int32_t* window<std::int32_t>(std::size_t, std::size_t, int);
template const std::int8_t* window<std::int8_t>(std::size_t, std::size_t, int);
template const std::uint8_t* window<std::uint8_t>(std::size_t, std::size_t, int);
template const std::int16_t* window<std::int16_t>(std::size_t, std::size_t, int);
template const std::uint16_t* window<std::uint16_t>(std::size_t, std::size_t, int);
template const float16* window<float16>(std::size_t, std::size_t, int);
template const bfloat16* window<bfloat16>(std::size_t, std::size_t, int);

void fill_host(float* p, std::size_t n, std::uint64_t seed) {
    std::uint64_t x = seed;
    for (std::size_t i = 0; i < n; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = static_cast<float>((x >> 11) * 0x1.0p-53 * 2.0 - 1.0);
    }
}

void check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return;
    std::fprintf(stderr, "bench_gpu: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
}

} // namespace preduce::bench_gpu
