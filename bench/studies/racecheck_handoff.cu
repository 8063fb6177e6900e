// Does compute-sanitizer's racecheck accept the named-barrier hand-off that the fixed order's
// staged kernel (grid/fixed_order/staged.cuh) uses? A producer warp writes shared memory and
// arrives (bar.arrive id, 64) without waiting; warp 0 syncs on the same id (bar.sync id, 64)
// and reads, then every warp meets at __syncthreads before the next part overwrites the
// stage. By the PTX barrier rules the reads see the writes and no write of the second part
// passes a read of the first, so this kernel has no race; the racy mode leaves the named
// barriers out and has one (the control: racecheck must report it).
// From the repository root, on the GPU machine:
//   nvcc -O3 -std=c++20 -arch=sm_90 -lineinfo -Ibackends/cuda/include \
//     bench/studies/racecheck_handoff.cu -o racecheck_handoff
//   compute-sanitizer --tool racecheck ./racecheck_handoff CTAS [racy|alone]
// (alone: 200 KiB of dynamic shared memory a CTA, so one CTA an SM).
// What an H200 gave (CUDA 13.0, driver 580): CTAS = 1: no hazard; CTAS = 2, 8, 100, 1000:
// 1-7 WAR "errors" between warp 0's reads and the producers' writes of the next part (with
// --racecheck-report all, thousands), alone as well. So the hazards racecheck reports on
// fixed_blocks_staged come with this pattern, which has none.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "preduce/cuda/block/named_barrier.cuh"

namespace {

using preduce::cuda::detail::named_arrive;
using preduce::cuda::detail::named_sync;

constexpr int warps = 8, rows = 8, eighth = 32 * rows, parts = 2;

// Each CTA sums two parts of warps * eighth doubles of in: the staged kernel's hand-off in
// eight warps and two parts (so that the barrier between parts is checked too), with warp 0
// reading eighth w + 1 as soon as its warp has arrived.
template <bool Named>
__global__ void handoff(const double* in, double* out) {
    __shared__ double stage[warps * eighth];
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    double acc = 0;
    for (int p = 0; p < parts; ++p) {
        double x[rows];
        const double* row = in + (static_cast<std::size_t>(blockIdx.x) * parts + p) * warps * eighth + warp * eighth + lane;
        for (int u = 0; u < rows; ++u) x[u] = row[32 * u];
        if (warp != 0) {
            for (int u = 0; u < rows; ++u) stage[warp * eighth + lane + 32 * u] = x[u];
            if (Named) named_arrive(warp, 64);
        } else {
            for (unsigned w = 0; w < warps; ++w) {
                const bool next = w + 1 < warps;
                if (Named && next) named_sync(w + 1, 64);
                for (int u = 0; u < rows; ++u) {
                    acc += x[u];
                    if (next) x[u] = stage[(w + 1) * eighth + lane + 32 * u];
                }
            }
        }
        if (p + 1 < parts) __syncthreads();
    }
    if (warp == 0) out[blockIdx.x * 32 + lane] = acc;
}

} // namespace

int main(int argc, char** argv) {
    const int ctas = argc > 1 ? std::atoi(argv[1]) : 0;
    const bool racy = argc > 2 && std::strcmp(argv[2], "racy") == 0;
    const bool alone = argc > 2 && std::strcmp(argv[2], "alone") == 0;
    if (ctas <= 0) {
        std::fprintf(stderr, "usage: %s CTAS [racy|alone]\n", argv[0]);
        return 2;
    }
    const std::size_t values = static_cast<std::size_t>(ctas) * parts * warps * eighth;
    double *in = nullptr, *out = nullptr;
    if (cudaMalloc(&in, values * sizeof(double)) != cudaSuccess ||
        cudaMalloc(&out, static_cast<std::size_t>(ctas) * 32 * sizeof(double)) != cudaSuccess) {
        std::fprintf(stderr, "cudaMalloc failed\n");
        return 1;
    }
    cudaMemset(in, 0, values * sizeof(double));
    constexpr int alone_bytes = 200 << 10;
    if (alone) cudaFuncSetAttribute(handoff<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, alone_bytes);
    if (racy) handoff<false><<<ctas, warps * 32>>>(in, out);
    else handoff<true><<<ctas, warps * 32, alone ? alone_bytes : 0>>>(in, out);
    const cudaError_t e = cudaDeviceSynchronize();
    std::printf("%d CTAs%s: %s\n", ctas, racy ? " (racy)" : alone ? " (one an SM)" : "", cudaGetErrorString(e));
    return e != cudaSuccess;
}
