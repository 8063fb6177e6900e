// What only the CUDA backend has: running out of device memory, user streams, and inputs
// past 2^31 and 2^32 elements (64-bit sizes and indices all the way through the kernels,
// for data in device memory and for host data streamed in chunks).
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "preduce/preduce.hpp"

using namespace preduce;

namespace {
constexpr std::uint32_t fill = 0x01010101u;  // every byte 0x01

struct device_array {
    std::int32_t* p = nullptr;
    explicit device_array(std::size_t n) {
        REQUIRE(cudaMalloc(reinterpret_cast<void**>(&p), n * sizeof(std::int32_t)) == cudaSuccess);
        REQUIRE(cudaMemset(p, 0x01, n * sizeof(std::int32_t)) == cudaSuccess);
    }
    ~device_array() { cudaFree(p); }
    void set(std::size_t i, std::int32_t v) { REQUIRE(cudaMemcpy(p + i, &v, sizeof v, cudaMemcpyHostToDevice) == cudaSuccess); }
};

void check_huge(const std::int32_t* data, std::size_t n, std::size_t marked_hi, std::size_t marked_lo) {
    INFO("n = " << n);
    // Two's-complement wrap of n * fill, adjusted for the two marked elements.
    const std::uint64_t expected_wrapped = (static_cast<std::uint64_t>(n - 2) * fill + 0x7fffffffu + 0x80000000u);
    CHECK(reduce(backend::cuda, data, n, sum) == static_cast<std::int32_t>(static_cast<std::uint32_t>(expected_wrapped)));
    CHECK(reduce(backend::cuda, data, n, wide_sum) ==
          static_cast<std::int64_t>(n - 2) * fill + 0x7fffffffLL - 0x80000000LL);
    const auto hi = reduce(backend::cuda, data, n, argmax);
    CHECK(hi.value == 0x7fffffff);
    CHECK(hi.index == marked_hi);
    const auto lo = reduce(backend::cuda, data, n, argmin);
    CHECK(lo.value == static_cast<std::int32_t>(0x80000000u));
    CHECK(lo.index == marked_lo);
    CHECK(reduce(backend::cuda, data, n, count_if(equal(static_cast<std::int32_t>(fill)))) == n - 2);
}
} // namespace

// First in the file, so that it runs in a fresh process whose workspace pool is empty.
TEST_CASE("out of device memory is an out_of_memory exception and the next call works", "[errors]") {
    std::vector<float> v(std::size_t{1} << 24, 0.5f);  // host data: staging needs fresh device buffers
    std::vector<void*> hogs;
    for (std::size_t chunk = std::size_t{1} << 30; chunk >= (std::size_t{1} << 20); chunk /= 2) {
        void* p = nullptr;
        while (cudaMalloc(&p, chunk) == cudaSuccess) hogs.push_back(p);
        cudaGetLastError();
    }
    INFO("held " << hogs.size() << " allocations");
    CHECK_THROWS_AS(reduce(backend::cuda, v, sum), preduce::out_of_memory);
    for (void* p : hogs) cudaFree(p);
    CHECK(reduce(backend::cuda, v, sum) == 0.5f * static_cast<float>(v.size()));
}

TEST_CASE("options::stream runs the reduction on the caller's stream", "[stream]") {
    cudaStream_t s = nullptr;
    REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    std::vector<std::int32_t> v(3'000'000);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::int32_t>(i % 1000) - 500;
    std::int32_t* d = nullptr;
    REQUIRE(cudaMalloc(reinterpret_cast<void**>(&d), v.size() * sizeof(std::int32_t)) == cudaSuccess);
    REQUIRE(cudaMemcpyAsync(d, v.data(), v.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice, s) == cudaSuccess);
    const options on_stream{.stream = s};
    // Stream order alone makes the copy visible to the reduction: no synchronisation here.
    CHECK(reduce(backend::cuda, d, v.size(), wide_sum, on_stream) == reduce(backend::seq, v, wide_sum));
    CHECK(reduce(backend::cuda, v, argmin, on_stream) == reduce(backend::seq, v, argmin));  // host data too
    cudaFree(d);
    cudaStreamDestroy(s);
}

TEST_CASE("2^31+5 and 2^32+7 int32 elements in device memory", "[large]") {
    for (std::size_t n : {(std::size_t{1} << 31) + 5, (std::size_t{1} << 32) + 7}) {
        device_array a(n);
        const std::size_t hi = n - 3, lo = (std::size_t{1} << 31) + 1;  // both past 2^31, hi past 2^32 for the larger n
        a.set(hi, 0x7fffffff);
        a.set(lo, static_cast<std::int32_t>(0x80000000u));
        check_huge(a.p, n, hi, lo);
    }
}

TEST_CASE("2^32+7 int32 elements streamed from host memory", "[large]") {
    const std::size_t n = (std::size_t{1} << 32) + 7;
    std::vector<std::int32_t> v(n, static_cast<std::int32_t>(fill));
    const std::size_t hi = n - 1, lo = std::size_t{1} << 32;
    v[hi] = 0x7fffffff;
    v[lo] = static_cast<std::int32_t>(0x80000000u);
    check_huge(v.data(), n, hi, lo);
}
