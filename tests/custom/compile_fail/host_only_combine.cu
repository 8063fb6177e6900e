// Must not compile: the CUDA backend runs combine() on the GPU, and this one is host-only.
#include <cstddef>

#include "preduce/cuda/reduce.cuh"

struct host_only_max {
    using value_type = float;
    static constexpr bool commutative = true;
    __host__ __device__ static float identity() { return -1e30f; }
    static float combine(float a, float b) { return a < b ? b : a; }  // no __device__
};

float use(const float* x, std::size_t n) { return preduce::cuda::reduce(x, n, host_only_max{}); }
