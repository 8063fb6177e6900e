// CUDA's __half and __nv_bfloat16 arrays through the front end (preduce/cuda_half.hpp):
// the same results, bit for bit, as the same bits passed as preduce::float16 / bfloat16,
// on every available backend with host memory, and on cuda with device memory too.
#include <catch2/catch.hpp>

#include <cuda_runtime_api.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <random>
#include <vector>

#include "preduce/cuda_half.hpp"
#include "preduce/preduce.hpp"

namespace {

template <class Cuda, class Ours>
void same_results(const std::vector<Ours>& x) {
    std::vector<Cuda> as_cuda(x.size());
    std::memcpy(static_cast<void*>(as_cuda.data()), x.data(), x.size() * sizeof(Ours));  // the same bits
    static_assert(std::is_same_v<preduce::detail::element_t<Cuda>, Ours>);

    double magnitude = 0;
    for (const Ours& v : x) magnitude += std::fabs(preduce::to_float(v));
    const auto compare = [&](preduce::backend b, const Cuda* c, const Ours* o) {
        INFO(preduce::describe(b));
        const std::size_t n = x.size();
        // A fast sum's order may change from call to call (OpenMP's reduction clause): within
        // the bound of float additions in any order; the fixed order's bits are the same.
        const double fast_c = preduce::reduce(b, c, n, preduce::sum), fast_o = preduce::reduce(b, o, n, preduce::sum);
        CHECK(std::fabs(fast_c - fast_o) <= 2.0 * static_cast<double>(n) * 0x1p-24 * magnitude);
        const preduce::options det{.precision = preduce::precision::deterministic};
        CHECK(std::bit_cast<std::uint32_t>(preduce::reduce(b, c, n, preduce::sum, det)) ==
              std::bit_cast<std::uint32_t>(preduce::reduce(b, o, n, preduce::sum, det)));
        CHECK(preduce::reduce(b, c, n, preduce::max).bits == preduce::reduce(b, o, n, preduce::max).bits);
        CHECK(preduce::reduce(b, c, n, preduce::argmin).index == preduce::reduce(b, o, n, preduce::argmin).index);
    };
    for (preduce::backend b : preduce::available_backends()) compare(b, as_cuda.data(), x.data());

    int devices = 0;
    if (!preduce::is_usable(preduce::backend::cuda) || cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return;
    void* d = nullptr;
    REQUIRE(cudaMalloc(&d, x.size() * sizeof(Ours)) == cudaSuccess);
    REQUIRE(cudaMemcpy(d, x.data(), x.size() * sizeof(Ours), cudaMemcpyHostToDevice) == cudaSuccess);
    compare(preduce::backend::cuda, static_cast<const Cuda*>(d), static_cast<const Ours*>(d));
    cudaFree(d);
}

template <class T>
std::vector<T> random_halves(std::size_t n) {
    std::mt19937 rng(n);
    std::vector<T> v(n);
    for (auto& e : v) e = preduce::detail::round_from_float<T>(std::uniform_real_distribution<float>(-4, 4)(rng));
    return v;
}

} // namespace

TEST_CASE("__half and __nv_bfloat16 arrays reduce as float16 and bfloat16", "[half][cuda]") {
    for (std::size_t n : {1u, 1000u, 100003u}) {
        same_results<__half>(random_halves<preduce::float16>(n));
        same_results<__nv_bfloat16>(random_halves<preduce::bfloat16>(n));
    }
}
