// Two correct shared-memory hand-offs of the fixed-order kernels, alone, for
// compute-sanitizer's racecheck (scripts/device/run.sh sanitize runs it under racecheck and
// reads the report count):
//   named    warps 1-3 write their rows to shared memory and arrive at a named barrier
//            (bar.arrive id, 64); warp 0 waits on it (bar.sync id, 64) and reads them: the
//            staged kernel's hand-off (grid/fixed_order/staged.cuh).
//   bulk     lane 0 of each warp fetches chunks into a two-deep ring with cp.async.bulk,
//            completing on an mbarrier; the warp waits on the barrier's phase, reads, and
//            __syncwarp()s before the chunk is fetched into again: the bulk block pass's
//            hand-off (grid/fixed_order/bulk.cuh).
//   named, then the CTA
//            the named hand-off, then what the staged kernel's CTA does after it: a
//            __syncthreads, lane 0 of each warp writes a value that warp 0 reads after another
//            (the last round's fold_few_from_l2), and every thread writes the stage's memory
//            again, read by thread 0 after one more (fold_run_in_shared's reuse of it).
//   the CTA alone
//            the same without the named hand-off: the control for the one above.
//   named, then a flag
//            the named hand-off, then the end of hand_on, where racecheck reports a race in
//            fixed_blocks_staged: thread 0 writes a shared flag, and every thread reads it
//            after a __syncthreads (docs/fixed-order-gpu.md maps the reports to that SASS).
//   a flag alone
//            the same without the named hand-off: its control.
// All are ordered by the PTX memory model (the barrier's arrive/sync; the mbarrier's phase
// completion; bar.sync 0 over every thread), and each checks its sums, so a failure here is a
// wrong result, not a report. A report in "named, then the CTA" and none in "the CTA alone"
// or "named" points at the tool's model of bar.arrive followed by bar.sync 0, and so does one
// in "named, then a flag" and none in "a flag alone".
// Without a GPU it exits 77 (skipped).
#include <cuda_runtime_api.h>

#include <cstdio>
#include <vector>

#include "preduce/cuda/block/named_barrier.cuh"
#include "preduce/cuda/grid/bulk_copy.cuh"

namespace {

using namespace preduce::cuda::detail;

constexpr int rows = 32;  // values a lane of warps 1-3 hands to warp 0

__global__ void named_handoff(const float* in, float* out) {
    __shared__ float stage[3 * 32 * rows];
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const float* block = in + static_cast<std::size_t>(blockIdx.x) * 4 * 32 * rows;
    if (warp != 0) {
        for (int u = 0; u < rows; ++u) stage[(warp - 1) * 32 * rows + u * 32 + lane] = block[warp * 32 * rows + u * 32 + lane];
        named_arrive(warp, 64);
        return;
    }
    float acc = 0.0f;
    for (int u = 0; u < rows; ++u) acc += block[u * 32 + lane];
    for (unsigned w = 1; w < 4; ++w) {
        named_sync(w, 64);
        for (int u = 0; u < rows; ++u) acc += stage[(w - 1) * 32 * rows + u * 32 + lane];
    }
    out[blockIdx.x * 32 + lane] = acc;
}

// The hand-off (Named) or a __syncthreads in its place: warps 1-3 stage their rows of the
// CTA's block, and warp 0 adds its own and then theirs. Warp 0's lanes return their sums of
// 4 * rows values, the other lanes 0.
template <bool Named>
__device__ float staged_handoff(const float* in, float* stage) {
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const float* block = in + static_cast<std::size_t>(blockIdx.x) * 4 * 32 * rows;
    float acc = 0.0f;
    if (warp != 0) {
        for (int u = 0; u < rows; ++u) stage[(warp - 1) * 32 * rows + u * 32 + lane] = block[warp * 32 * rows + u * 32 + lane];
        if constexpr (Named) named_arrive(warp, 64);
    } else {
        for (int u = 0; u < rows; ++u) acc += block[u * 32 + lane];
    }
    if constexpr (!Named) __syncthreads();
    if (warp == 0)
        for (unsigned w = 1; w < 4; ++w) {
            if constexpr (Named) named_sync(w, 64);
            for (int u = 0; u < rows; ++u) acc += stage[(w - 1) * 32 * rows + u * 32 + lane];
        }
    return acc;
}

// After the hand-off (or without it, Named false): the staged kernel's later uses of shared
// memory, each after a __syncthreads. out[blockIdx.x]: 4 * 32 * rows + 3 + 128 with ones in.
template <bool Named>
__global__ void named_then_cta(const float* in, float* out) {
    __shared__ float stage[3 * 32 * rows];
    __shared__ float warp_value[4];
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    float acc = staged_handoff<Named>(in, stage);
    for (unsigned d = 16; d > 0; d /= 2) acc += __shfl_down_sync(0xffffffffu, acc, d);  // warp 0's lane 0: the block
    __syncthreads();  // hand_on's: warp 0 has read the stage
    if (lane == 0) warp_value[warp] = warp == 0 ? acc : 1.0f;
    __syncthreads();
    float total = 0.0f;
    if (warp == 0 && lane < 4) total = warp_value[lane];
    stage[threadIdx.x] = 1.0f;  // the stage's memory written again, as the tree's
    __syncthreads();
    if (threadIdx.x == 0)
        for (unsigned i = 0; i < 128; ++i) total += stage[i];
    if (warp == 0) total += __shfl_down_sync(0xffffffffu, total, 1) + __shfl_down_sync(0xffffffffu, total, 2) +
                            __shfl_down_sync(0xffffffffu, total, 3);
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}

// After the hand-off (or without it, Named false): the end of hand_on (grid/fixed_order), whose
// reports racecheck gives in fixed_blocks_staged: thread 0 takes a ticket from a global
// counter, writes whether its CTA came last to shared memory, and after a __syncthreads every
// thread reads it (STS.U8, BAR.SYNC 0, LDS.U8: the write and read 0x70 bytes apart that
// racecheck reports). seen[t] of every thread of the grid: 1 in the last CTA alone.
template <bool Named>
__global__ void named_then_flag(const float* in, float* out, unsigned* counter, unsigned char* seen) {
    __shared__ float stage[3 * 32 * rows];
    __shared__ bool last;
    const float acc = staged_handoff<Named>(in, stage);
    if (threadIdx.x < 32) out[blockIdx.x * 32 + threadIdx.x] = acc;
    if (threadIdx.x == 0) {
        __threadfence();
        last = atomicAdd(counter, 1u) + 1 == gridDim.x;
    }
    __syncthreads();
    seen[blockIdx.x * blockDim.x + threadIdx.x] = last ? 1 : 0;
}

constexpr unsigned chunk_floats = 1024, depth = 2, chunks = 16;  // 4 KiB chunks: 32 KiB of ring a CTA

__global__ void bulk_handoff(const float* in, float* out) {
    __shared__ alignas(128) float ring[4][depth][chunk_floats];
    __shared__ alignas(8) unsigned long long bar[4][depth];
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const float* mine = in + (static_cast<std::size_t>(blockIdx.x) * 4 + warp) * chunks * chunk_floats;
    if (lane == 0) {
        for (unsigned d = 0; d < depth; ++d) bulk::barrier_init(&bar[warp][d], 1);
        bulk::barrier_init_fence();
    }
    __syncwarp();
    const auto fetch = [&](unsigned j) {
        if (lane != 0) return;
        bulk::barrier_expect(&bar[warp][j % depth], chunk_floats * sizeof(float));
        bulk::copy(ring[warp][j % depth], mine + j * chunk_floats, chunk_floats * sizeof(float), &bar[warp][j % depth]);
    };
    for (unsigned j = 0; j < depth; ++j) fetch(j);
    float acc = 0.0f;
    for (unsigned j = 0; j < chunks; ++j) {
        bulk::barrier_wait(&bar[warp][j % depth], j / depth % 2);
        for (unsigned i = lane; i < chunk_floats; i += 32) acc += ring[warp][j % depth][i];
        __syncwarp();  // every lane has read the chunk before it is fetched into again
        if (j + depth < chunks) fetch(j + depth);
    }
    out[(blockIdx.x * 4 + warp) * 32 + lane] = acc;
}

bool check(const std::vector<float>& got, std::size_t groups, std::size_t per_lane, const char* what) {
    // Input value 1 everywhere: each lane's sum is the count it added.
    for (std::size_t i = 0; i < groups * 32; ++i)
        if (got[i] != static_cast<float>(per_lane)) {
            std::printf("%s: lane %zu summed %g, want %zu\n", what, i, got[i], per_lane);
            return false;
        }
    return true;
}

} // namespace

int main() {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("no GPU: skipped\n");
        return 77;
    }
    constexpr unsigned blocks = 64;
    const std::size_t n = static_cast<std::size_t>(blocks) * 4 * chunks * chunk_floats;
    std::vector<float> ones(n, 1.0f), got(static_cast<std::size_t>(blocks) * 4 * 32);
    float *in = nullptr, *out = nullptr;
    if (cudaMalloc(&in, n * sizeof(float)) != cudaSuccess || cudaMalloc(&out, got.size() * sizeof(float)) != cudaSuccess) return 1;
    cudaMemcpy(in, ones.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    named_handoff<<<blocks, 128>>>(in, out);
    cudaMemcpy(got.data(), out, blocks * 32 * sizeof(float), cudaMemcpyDeviceToHost);
    bool ok = check(got, blocks, 4 * rows, "named");
    for (const bool named : {true, false}) {
        if (named) named_then_cta<true><<<blocks, 128>>>(in, out);
        else named_then_cta<false><<<blocks, 128>>>(in, out);
        cudaMemcpy(got.data(), out, blocks * sizeof(float), cudaMemcpyDeviceToHost);
        for (unsigned b = 0; b < blocks; ++b)
            if (got[b] != static_cast<float>(4 * 32 * rows + 3 + 128)) {
                std::printf("%s: block %u gave %g, want %d\n", named ? "named, then the CTA" : "the CTA alone", b, got[b],
                            4 * 32 * rows + 3 + 128);
                ok = false;
                break;
            }
    }
    unsigned* counter = nullptr;
    unsigned char* seen = nullptr;
    if (cudaMalloc(&counter, sizeof(unsigned)) != cudaSuccess || cudaMalloc(&seen, blocks * 128) != cudaSuccess) return 1;
    for (const bool named : {true, false}) {
        cudaMemset(counter, 0, sizeof(unsigned));
        if (named) named_then_flag<true><<<blocks, 128>>>(in, out, counter, seen);
        else named_then_flag<false><<<blocks, 128>>>(in, out, counter, seen);
        const char* what = named ? "named, then a flag" : "a flag alone";
        cudaMemcpy(got.data(), out, blocks * 32 * sizeof(float), cudaMemcpyDeviceToHost);
        ok = check(got, blocks, 4 * rows, what) && ok;
        std::vector<unsigned char> flags(blocks * 128);
        cudaMemcpy(flags.data(), seen, flags.size(), cudaMemcpyDeviceToHost);
        unsigned last_ctas = 0;
        for (unsigned b = 0; b < blocks; ++b) {
            unsigned ones = 0;
            for (unsigned t = 0; t < 128; ++t) ones += flags[b * 128 + t];
            if (ones != 0 && ones != 128) {
                std::printf("%s: block %u, %u of its threads saw it last\n", what, b, ones);
                ok = false;
            }
            last_ctas += ones == 128;
        }
        if (last_ctas != 1) {
            std::printf("%s: %u blocks came last\n", what, last_ctas);
            ok = false;
        }
    }
    cudaFree(counter);
    cudaFree(seen);
    bulk_handoff<<<blocks, 128>>>(in, out);
    cudaMemcpy(got.data(), out, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
    ok = check(got, static_cast<std::size_t>(blocks) * 4, chunks * chunk_floats / 32, "bulk") && ok;
    const cudaError_t e = cudaDeviceSynchronize();
    std::printf("%s (%s)\n", ok && e == cudaSuccess ? "sums right" : "WRONG", cudaGetErrorString(e));
    cudaFree(in);
    cudaFree(out);
    return ok && e == cudaSuccess ? 0 : 1;
}
