// How many floats an SM converts to double a clock, and whether integer instructions can
// convert some of them beside the conversion unit. A compensated float sum converts every
// element once (its lanes are doubles), so at sizes where the pass is short the conversions
// can set its time; this measures their rate apart from any memory traffic.
// Two CTAs of 256 threads an SM; each thread takes floats from shared memory (constant
// offsets, so no address arithmetic) and adds each, converted, into one of 8 double
// accumulators. SM clocks from clock64() around each CTA's loop; the rate is an SM's
// conversions (two CTAs') over the slowest CTA's clocks:
//   cvt      (double)x: cvt.f64.f32 (F2F.F64.F32)
//   int      the double's two words built from x's bits with integer instructions (normal
//            floats only, as the data here; zero, subnormals, infinities and NaN would need
//            more): hi = sign | ((bits & 0x7fffffff) >> 3) + (896 << 20), lo = bits << 29
//   half     even elements by cvt, odd ones by int
//   none     doubles read from shared memory and added: the loads and adds alone
// Every form's sum is checked against cvt's, bit for bit. Then the same loop as one chain in
// one warp (one accumulator): clocks a step for a conversion and a double add, a double
// add, and a float add (the deterministic float lanes' step).
// From the repository root (nvcc here, run on the GPU machine):
//   nvcc -O3 -std=c++17 -arch=sm_90 -Iinclude -Ibackends/cuda/include bench/studies/float_to_double_rate.cu \
//     -o float_to_double_rate
//   ./float_to_double_rate
// What an H100 and an H200 gave (CUDA 13.0, driver 580; results/float-to-double-rate.txt): 61.6 a
// clock an SM in every form, the double adds' rate, so the conversion is not what limits;
// one chain: 8.1 clocks a step with or without the conversion, 4.2 with float adds.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

#include "preduce/cuda/runtime/check.hpp"

namespace {

enum class form { cvt, integer, half, none, floats };

constexpr int threads = 256, ctas_an_sm = 2, accumulators = 8, tile = 32, rounds = 2048;

__device__ __forceinline__ double widen_by_integers(float x) {
    const unsigned bits = __float_as_uint(x);
    const unsigned hi = (bits & 0x80000000u) | (((bits & 0x7fffffffu) >> 3) + (896u << 20));
    return __hiloint2double(static_cast<int>(hi), static_cast<int>(bits << 29));
}

// Chains: the accumulators a thread adds into in turn (8: throughput; 1: one dependent chain).
template <form F, int Chains = accumulators>
__global__ void __launch_bounds__(threads, ctas_an_sm) convert(const float* in, const double* in_d, double* out,
                                                                long long* clocks) {
    using acc_t = std::conditional_t<F == form::floats, float, double>;
    __shared__ float xs[tile * 32];
    __shared__ double ds[tile * 32];
    const unsigned lane = threadIdx.x % 32;
    for (unsigned i = threadIdx.x; i < tile * 32; i += threads) {
        xs[i] = in[i];
        ds[i] = in_d[i];
    }
    __syncthreads();
    acc_t acc[Chains] = {};
    const long long t0 = clock64();
    for (int r = 0; r < rounds; ++r) {
        asm volatile("" ::: "memory");  // read the tile again each round (no hoisted loads)
#pragma unroll
        for (int k = 0; k < tile; ++k) {
            acc_t v;
            if constexpr (F == form::none) {
                v = ds[k * 32 + lane];
            } else {
                const float x = xs[k * 32 + lane];
                if constexpr (F == form::cvt) v = static_cast<double>(x);
                else if constexpr (F == form::floats) v = x;
                else if constexpr (F == form::integer) v = widen_by_integers(x);
                else v = k % 2 == 0 ? static_cast<double>(x) : widen_by_integers(x);
            }
            acc[k % Chains] += v;
        }
    }
    const long long t1 = clock64();
    double s = 0;
    for (acc_t a : acc) s += a;
    out[blockIdx.x * threads + threadIdx.x] = s;
    if (threadIdx.x == 0) clocks[blockIdx.x] = t1 - t0;
}

// The library's check on CUDA calls: a failure throws, naming the call.
#define CHECK(call) preduce::cuda::detail::check((call), #call)

} // namespace

int main() {
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    float h[tile * 32];
    double hd[tile * 32];
    unsigned state = 12345;
    for (int i = 0; i < tile * 32; ++i) {  // normal floats in [0.5, 2), either sign
        state = state * 1664525u + 1013904223u;
        const unsigned bits = (state & 0x807fffffu) | (state & 0x00800000u ? 0x3f000000u : 0x3f800000u);
        std::memcpy(&h[i], &bits, sizeof bits);
        hd[i] = h[i];
    }
    float* in;
    double *in_d, *out;
    long long* clocks;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&in_d, sizeof hd));
    const int ctas = sms * ctas_an_sm;
    CHECK(cudaMalloc(&out, sizeof(double) * ctas * threads));
    CHECK(cudaMalloc(&clocks, sizeof(long long) * ctas));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(in_d, hd, sizeof hd, cudaMemcpyHostToDevice));
    std::vector<double> reference(ctas * threads), sums(ctas * threads);
    std::vector<long long> c(ctas);
    const char* names[] = {"cvt", "int", "half", "none"};
    const double per_sm = static_cast<double>(ctas_an_sm) * threads * tile * rounds;
    std::printf("%d SMs, %d CTAs of %d threads an SM, %.0f conversions an SM; conversions a clock an SM (best of 5)\n",
                sms, ctas_an_sm, threads, per_sm);
    for (int f = 0; f < 4; ++f) {
        double best = 0;
        for (int rep = 0; rep < 5; ++rep) {
            switch (f) {
            case 0: convert<form::cvt><<<ctas, threads>>>(in, in_d, out, clocks); break;
            case 1: convert<form::integer><<<ctas, threads>>>(in, in_d, out, clocks); break;
            case 2: convert<form::half><<<ctas, threads>>>(in, in_d, out, clocks); break;
            default: convert<form::none><<<ctas, threads>>>(in, in_d, out, clocks); break;
            }
            CHECK(cudaGetLastError());
            CHECK(cudaDeviceSynchronize());
            CHECK(cudaMemcpy(c.data(), clocks, sizeof(long long) * ctas, cudaMemcpyDeviceToHost));
            const long long slowest = *std::max_element(c.begin(), c.end());
            best = std::max(best, per_sm / static_cast<double>(slowest));
        }
        CHECK(cudaMemcpy((f == 0 ? reference : sums).data(), out, sizeof(double) * ctas * threads, cudaMemcpyDeviceToHost));
        const bool same = f == 0 || std::memcmp(reference.data(), sums.data(), sizeof(double) * sums.size()) == 0;
        std::printf("  %-5s %6.2f  %s\n", names[f], best, same ? "sums as cvt's" : "SUMS DIFFER");
    }
    // One warp, one chain: clocks a dependent step (the latency of one add, or of a
    // conversion and an add where the conversion is not hoisted off the chain).
    std::printf("one warp, one chain: clocks an element\n");
    const char* chain_names[] = {"cvt + dadd", "dadd", "fadd"};
    for (int f = 0; f < 3; ++f) {
        switch (f) {
        case 0: convert<form::cvt, 1><<<1, 32>>>(in, in_d, out, clocks); break;
        case 1: convert<form::none, 1><<<1, 32>>>(in, in_d, out, clocks); break;
        default: convert<form::floats, 1><<<1, 32>>>(in, in_d, out, clocks); break;
        }
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        long long one = 0;
        CHECK(cudaMemcpy(&one, clocks, sizeof one, cudaMemcpyDeviceToHost));
        std::printf("  %-11s %6.2f\n", chain_names[f], static_cast<double>(one) / (tile * rounds));
    }
    return 0;
}
