#pragma once
// Dispatch: picks the launch shape and enqueues the kernels on a stream. Small inputs
// take one single-block launch; larger ones the two-pass path (one partial per block of
// a one-wave grid, then a single-block finalize). Every launch is checked.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <string>
#include <utility>

#include "preduce/cuda/runtime/check.hpp"
#include "preduce/cuda/grid/kernels.cuh"
#include "preduce/cuda/runtime/memory.hpp"
#include "preduce/cuda/tuning.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda::detail {

// kernel<<<grid, block, 0, stream>>>(args...), with a launch failure (bad configuration,
// no kernel image for this GPU) thrown from the launch's own return value rather than read
// from the last-error slot, which may hold an error of the application's (runtime/check.hpp).
template <class... Params, class... Args>
void launch(const char* what, void (*kernel)(Params...), unsigned grid, unsigned block, cudaStream_t stream,
            Args&&... args) {
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(grid);
    config.blockDim = dim3(block);
    config.dynamicSmemBytes = 0;
    config.stream = stream;
    check(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...), what);
}

inline int current_device() {
    int d = 0;
    check(cudaGetDevice(&d), "cudaGetDevice");
    return d;
}

// Blocks of `kernel` (with `threads` threads) in one full wave on the current device, at
// most `per_sm_cap` per SM; `cache` (one per kernel) keeps the answer per device.
using wave_cache = std::array<std::atomic<int>, 64>;
template <class Kernel>
int one_wave(wave_cache& cache, Kernel* kernel, int threads, int per_sm_cap) {
    const int device = current_device();
    auto& slot = cache[static_cast<std::size_t>(device) % cache.size()];
    int blocks = slot.load(std::memory_order_relaxed);
    if (blocks == 0) {
        int sms = 0, per_sm = 0;
        check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
        check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0),
              "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
        blocks = sms * std::max(1, std::min(per_sm, per_sm_cap));
        slot.store(blocks, std::memory_order_relaxed);
    }
    return blocks;
}

// Blocks of one full wave of reduce_partials, tuning::blocks_per_sm per SM at most.
template <int BlockThreads, class R>
int wave_blocks() {
    static wave_cache cache{};
    // PREDUCE_CUDA_BLOCKS_PER_SM overrides the tuning constant for tuning sweeps only.
    static const int wanted = [] {
        const char* env = std::getenv("PREDUCE_CUDA_BLOCKS_PER_SM");
        return env != nullptr ? std::max(1, std::atoi(env)) : tuning::blocks_per_sm;
    }();
    return one_wave(cache, reduce_partials<BlockThreads, R>, BlockThreads, wanted);
}

// Grid for n elements: enough blocks for the tiles, at most one wave.
template <int BlockThreads, class R>
int grid_for(std::size_t n) {
    constexpr std::size_t tile = tile_elements<BlockThreads, R>();
    const std::size_t tiles_needed = (n + tile - 1) / tile;
    return static_cast<int>(std::max<std::size_t>(1, std::min<std::size_t>(tiles_needed, wave_blocks<BlockThreads, R>())));
}

// Enqueues the partials of elements [0, n) of data (global index base) with `blocks` blocks.
template <class R>
void enqueue_partials(const R& r, source_t<R> data, std::size_t n, std::size_t base, int blocks,
                      typename R::accumulator_type* partials, cudaStream_t stream) {
    constexpr int B = tuning::block_threads;
    launch("reduce_partials launch", reduce_partials<B, R>, static_cast<unsigned>(blocks), B, stream, r, data, n, base,
           partials, static_cast<typename R::result_type*>(nullptr));
}

template <class R, bool Finish = true>
void enqueue_finalize(const R& r, const typename R::accumulator_type* partials, std::size_t count,
                      output_t<R, Finish>* result, cudaStream_t stream) {
    constexpr int B = tuning::block_threads;
    launch("reduce_finalize launch", reduce_finalize<B, R, Finish>, 1, B, stream, r, partials, count, result);
}

// Workspace for reductions this host thread enqueues on a default stream (the per-thread
// stream, which the front end uses, or the legacy stream 0). Work on one stream runs in
// order, so each call may reuse the previous call's buffer: no allocation at all, which
// measured 1.5-3 us per call against a stream-ordered pool on an H200 at 2^16-2^24.
inline void* default_stream_workspace(std::size_t bytes) {
    struct cached {
        int device = -1;
        void* ptr = nullptr;
        std::size_t size = 0;
        ~cached() {
            if (ptr != nullptr) cudaFree(ptr);
        }
    };
    thread_local cached c;
    const int device = current_device();
    if (c.device != device || c.size < bytes) {
        if (c.ptr != nullptr) check(cudaFree(c.ptr), "cudaFree (workspace)");
        c.ptr = nullptr;
        c.size = 0;
        const std::size_t size = bytes < (std::size_t{64} << 10) ? (std::size_t{64} << 10) : bytes;
        check(cudaMalloc(&c.ptr, size), "cudaMalloc (workspace)");
        c.device = device;
        c.size = size;
    }
    return c.ptr;
}

// Device workspace the reduction of n elements needs: one accumulator per block.
template <class R>
std::size_t workspace_bytes(std::size_t n) {
    if (n <= tuning::single_block_max_elements) return 0;
    return static_cast<std::size_t>(grid_for<tuning::block_threads, R>(n)) * sizeof(typename R::accumulator_type);
}

// The whole reduction of device-accessible data into *d_result, enqueued on `stream`.
// The workspace is the caller's when given (at least workspace_bytes<R>(n) bytes), else
// it comes from preduce's stream-ordered pool and goes back to it on the same stream.
// Finish = false leaves the accumulator instead of the result, and base is the global
// index of data[0] (both for one part of a multi-GPU reduction).
template <class R, bool Finish = true>
void enqueue_reduce(const R& r, source_t<R> data, std::size_t n, output_t<R, Finish>* d_result,
                    cudaStream_t stream, void* workspace = nullptr, std::size_t workspace_size = 0,
                    std::size_t base = 0) {
    using A = typename R::accumulator_type;
    constexpr int B = tuning::block_threads;
    if (n <= tuning::single_block_max_elements) {
        // One block: its single partial is the accumulator, or it writes the finished result.
        using A = typename R::accumulator_type;
        using Result = typename R::result_type;
        if constexpr (Finish)
            launch("reduce_partials (single block) launch", reduce_partials<B, R>, 1, B, stream, r, data, n, base,
                   static_cast<A*>(nullptr), d_result);
        else
            launch("reduce_partials (single block) launch", reduce_partials<B, R>, 1, B, stream, r, data, n, base,
                   d_result, static_cast<Result*>(nullptr));
        return;
    }
    const int blocks = grid_for<B, R>(n);
    const std::size_t bytes = static_cast<std::size_t>(blocks) * sizeof(A);
    device_buffer pooled;
    if (workspace == nullptr) {
        if (stream == cudaStreamPerThread || stream == cudaStream_t{}) {
            workspace = default_stream_workspace(bytes);
        } else {
            pooled = device_buffer(bytes, stream);
            workspace = pooled.as<void>();
        }
    } else if (workspace_size < bytes) {
        throw invalid_argument("preduce::cuda::reduce_async: workspace of " + std::to_string(workspace_size) +
                               " bytes, needs workspace_bytes() = " + std::to_string(bytes));
    }
    enqueue_partials(r, data, n, base, blocks, static_cast<A*>(workspace), stream);
    enqueue_finalize<R, Finish>(r, static_cast<const A*>(workspace), static_cast<std::size_t>(blocks), d_result, stream);
}

} // namespace preduce::cuda::detail
