// The 16-bit float conversions of preduce/half.hpp in device code, against the same
// functions on the host (which test_half checks against ldexp and a nearest-value oracle):
// every float16 and bfloat16 pattern widened, and a sweep of float patterns over the whole
// 32-bit space narrowed, bit for bit. The one allowed difference: device code widens a
// float16 with the GPU's conversion, which gives every NaN as one NaN, where the host keeps
// the sign and payload; a float16 NaN must still widen to a NaN. Catch2 cases;
// tests/support/cuda_main.cpp skips them (exit 77) where no GPU is usable.
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>

#include <bit>
#include <cstdint>
#include <vector>

#include "preduce/half.hpp"

namespace {

void check(cudaError_t e) { REQUIRE(e == cudaSuccess); }

__global__ void widen_all(std::uint32_t* f16, std::uint32_t* bf16) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i > 0xffffu) return;
    const auto bits = static_cast<std::uint16_t>(i);
    f16[i] = std::bit_cast<std::uint32_t>(preduce::to_float(preduce::float16{bits}));
    bf16[i] = std::bit_cast<std::uint32_t>(preduce::to_float(preduce::bfloat16{bits}));
}

// Float pattern k of the sweep: every 2^11-th pattern and its two neighbours, so that every
// exponent, both signs, NaNs, infinities, subnormals and rounding ties are among them.
__host__ __device__ std::uint32_t sweep_pattern(std::uint32_t k) {
    const std::uint32_t base = (k / 3) << 11;
    return base + (k % 3) - 1;  // base - 1, base, base + 1 (wrapping at 0)
}
constexpr std::uint32_t sweep_count = 3u << 21;

__global__ void narrow_sweep(std::uint16_t* f16, std::uint16_t* bf16) {
    const std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= sweep_count) return;
    const float x = std::bit_cast<float>(sweep_pattern(k));
    f16[k] = preduce::to_float16(x).bits;
    bf16[k] = preduce::to_bfloat16(x).bits;
}

template <class T>
struct device_array {
    T* p = nullptr;
    explicit device_array(std::size_t n) { check(cudaMalloc(&p, n * sizeof(T))); }
    ~device_array() { cudaFree(p); }
    std::vector<T> to_host(std::size_t n) const {
        std::vector<T> v(n);
        check(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
        return v;
    }
};

} // namespace

TEST_CASE("every float16 and bfloat16 widens to the same float32 bits on the device as on the host", "[half]") {
    constexpr std::size_t n = 65536;
    device_array<std::uint32_t> f16(n), bf16(n);
    widen_all<<<n / 256, 256>>>(f16.p, bf16.p);
    check(cudaGetLastError());
    const auto got16 = f16.to_host(n), gotbf = bf16.to_host(n);
    std::size_t wrong16 = 0, wrongbf = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        const auto bits = static_cast<std::uint16_t>(i);
        const auto want16 = std::bit_cast<std::uint32_t>(preduce::to_float(preduce::float16{bits}));
        const auto wantbf = std::bit_cast<std::uint32_t>(preduce::to_float(preduce::bfloat16{bits}));
        const bool nan16 = (bits & 0x7fffu) > 0x7c00u;
        const bool same16 = nan16 ? (got16[i] & 0x7fffffffu) > 0x7f800000u : got16[i] == want16;
        if (!same16 && wrong16++ < 5) FAIL_CHECK("float16 0x" << std::hex << i << ": device 0x" << got16[i] << ", host 0x" << want16);
        if (gotbf[i] != wantbf && wrongbf++ < 5) FAIL_CHECK("bfloat16 0x" << std::hex << i << ": device 0x" << gotbf[i] << ", host 0x" << wantbf);
    }
    CHECK(wrong16 == 0);
    CHECK(wrongbf == 0);
}

TEST_CASE("float32 values narrow to the same float16 and bfloat16 bits on the device as on the host", "[half]") {
    device_array<std::uint16_t> f16(sweep_count), bf16(sweep_count);
    narrow_sweep<<<(sweep_count + 255) / 256, 256>>>(f16.p, bf16.p);
    check(cudaGetLastError());
    const auto got16 = f16.to_host(sweep_count), gotbf = bf16.to_host(sweep_count);
    std::size_t wrong16 = 0, wrongbf = 0;
    for (std::uint32_t k = 0; k < sweep_count; ++k) {
        const std::uint32_t pattern = sweep_pattern(k);
        const float x = std::bit_cast<float>(pattern);
        const auto want16 = preduce::to_float16(x).bits, wantbf = preduce::to_bfloat16(x).bits;
        if (got16[k] != want16 && wrong16++ < 5) FAIL_CHECK("to_float16(0x" << std::hex << pattern << "): device 0x" << got16[k] << ", host 0x" << want16);
        if (gotbf[k] != wantbf && wrongbf++ < 5) FAIL_CHECK("to_bfloat16(0x" << std::hex << pattern << "): device 0x" << gotbf[k] << ", host 0x" << wantbf);
    }
    CHECK(wrong16 == 0);
    CHECK(wrongbf == 0);
}
