// The header-only CUDA API, compiled by nvcc as a user would: reduce_async leaving the
// result in device memory (pool workspace and caller workspace), and a user-defined
// reducer through the same kernels. A plain program: exit 0 passes, 77 skips (no GPU).
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "preduce/cuda/reduce.cuh"
#include "preduce/reducers.hpp"
#include "preduce/seq/reduce.hpp"

namespace {
int failures = 0;
#define EXPECT(cond)                                                                                  \
    do {                                                                                              \
        if (!(cond)) {                                                                                \
            std::printf("FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond);                             \
            ++failures;                                                                               \
        }                                                                                             \
    } while (0)

// Sum of squares in double, the shape of reducer a user writes (issue: custom operations).
struct sum_of_squares {
    using value_type = float;
    using accumulator_type = double;
    using result_type = double;
    __host__ __device__ static double identity() { return 0.0; }
    __host__ __device__ double lift(float x, std::size_t) const { return double(x) * double(x); }
    __host__ __device__ static double combine(double a, double b) { return a + b; }
    __host__ __device__ double finish(double a) const { return a; }
};

template <class T>
T to_host(const T* d) {
    T h{};
    cudaMemcpy(&h, d, sizeof(T), cudaMemcpyDeviceToHost);
    return h;
}
} // namespace

int main() {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("SKIPPED: no CUDA device\n");
        return 77;
    }
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{5000}, std::size_t{1} << 20, (std::size_t{1} << 22) + 3}) {
        std::vector<int> h(n);
        for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<int>((i * 2654435761u) % 2001) - 1000;
        int* d = nullptr;
        cudaMalloc(&d, (n + 1) * sizeof(int));
        cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
        preduce::argmax_reducer<int>::result_type* d_arg = nullptr;
        long long* d_sum = nullptr;
        cudaMalloc(&d_arg, sizeof(*d_arg));
        cudaMalloc(&d_sum, sizeof(*d_sum));

        const preduce::argmax_reducer<int> am{};
        const preduce::wide_sum_reducer<int> ws{};
        preduce::cuda::reduce_async(d, n, am, d_arg, s);  // pool workspace on a user stream
        const std::size_t bytes = preduce::cuda::workspace_bytes<preduce::wide_sum_reducer<int>>(n);
        void* scratch = nullptr;
        cudaMalloc(&scratch, bytes + 1);
        preduce::cuda::reduce_async(d, n, ws, reinterpret_cast<std::int64_t*>(d_sum), scratch, bytes, s);
        cudaStreamSynchronize(s);
        EXPECT(to_host(d_arg) == preduce::seq::reduce(h.data(), n, am));
        EXPECT(to_host(d_sum) == preduce::seq::reduce(h.data(), n, ws));

        std::vector<float> f(n);
        for (std::size_t i = 0; i < n; ++i) f[i] = static_cast<float>(h[i]) / 1000.0f;
        const double got = preduce::cuda::reduce(f.data(), n, sum_of_squares{});
        const double want = preduce::seq::reduce(f.data(), n, sum_of_squares{});
        EXPECT(std::abs(got - want) <= 1e-12 * (want + 1.0) * static_cast<double>(n + 1));

        cudaFree(scratch);
        cudaFree(d_arg);
        cudaFree(d_sum);
        cudaFree(d);
    }
    // Too small a caller workspace is refused, not overrun.
    bool refused = false;
    try {
        int* d = nullptr;
        cudaMalloc(&d, sizeof(int) << 20);
        preduce::cuda::reduce_async(d, std::size_t{1} << 20, preduce::sum_reducer<int>{}, d, d, 1, s);
        cudaFree(d);
    } catch (const preduce::invalid_argument&) {
        refused = true;
    }
    EXPECT(refused);
    cudaStreamDestroy(s);
    std::printf("%d failed\n", failures);
    return failures == 0 ? 0 : 1;
}
