#pragma once
// Dispatch: picks the launch shape and enqueues the kernels on a stream. Small inputs
// take one single-block launch; larger ones one launch of a one-wave grid whose last block
// folds the blocks' partials (kernels.cuh). Every launch is checked.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <utility>

#include "preduce/cuda/runtime/check.hpp"
#include "preduce/cuda/grid/kernels.cuh"
#include "preduce/cuda/runtime/device_tuning.hpp"
#include "preduce/cuda/runtime/memory.hpp"
#include "preduce/cuda/tuning.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda::detail {

// kernel<<<grid, block, 0, stream>>>(args...), with a launch failure (bad configuration,
// no kernel image for this GPU) thrown from the launch's own return value rather than read
// from the last-error slot, which may hold an error of the application's (runtime/check.hpp).
// launch_shared: the same with `shared` bytes of dynamic shared memory per block.
template <class... Params, class... Args>
void launch_shared(const char* what, void (*kernel)(Params...), unsigned grid, unsigned block, std::size_t shared,
                   cudaStream_t stream, Args&&... args) {
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(grid);
    config.blockDim = dim3(block);
    config.dynamicSmemBytes = shared;
    config.stream = stream;
    check(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...), what);
}
template <class... Params, class... Args>
void launch(const char* what, void (*kernel)(Params...), unsigned grid, unsigned block, cudaStream_t stream,
            Args&&... args) {
    launch_shared(what, kernel, grid, block, 0, stream, std::forward<Args>(args)...);
}

inline int current_device() {
    int d = 0;
    check(cudaGetDevice(&d), "cudaGetDevice");
    return d;
}

// The tuning table's entry for the current device (tuning.hpp).
inline const tuning::table& current_tuning() { return tuning::for_device(current_device()); }

// Blocks of `kernel` (with `threads` threads) in one full wave on the current device, at
// most per_sm_cap per SM (a number, or a function of the device asked on a cache miss);
// `cache` (one per kernel) keeps the answer per device.
using wave_cache = std::array<std::atomic<int>, 64>;
template <class Kernel, class Cap>
int one_wave(wave_cache& cache, Kernel* kernel, int threads, Cap per_sm_cap) {
    const int device = current_device();
    auto& slot = cache[static_cast<std::size_t>(device) % cache.size()];
    int blocks = slot.load(std::memory_order_relaxed);
    if (blocks == 0) {
        int sms = 0, per_sm = 0;
        check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
        check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0),
              "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
        int cap = 0;
        if constexpr (std::is_invocable_v<Cap, int>) cap = per_sm_cap(device);
        else cap = per_sm_cap;
        blocks = sms * std::max(1, std::min(per_sm, cap));
        slot.store(blocks, std::memory_order_relaxed);
    }
    return blocks;
}

// Resident blocks per SM the fast order's one-wave grids are sized for on `device`: the
// tuning table's blocks_per_sm, or PREDUCE_CUDA_BLOCKS_PER_SM, which overrides it for
// tuning sweeps only.
inline int fast_blocks_per_sm(int device) {
    static const int from_environment = [] {
        const char* env = std::getenv("PREDUCE_CUDA_BLOCKS_PER_SM");
        return env != nullptr ? std::max(1, std::atoi(env)) : 0;
    }();
    return from_environment > 0 ? from_environment : tuning::for_device(device).blocks_per_sm;
}

// Blocks of one full wave of reduce_partials, fast_blocks_per_sm per SM at most.
template <int BlockThreads, class R>
int wave_blocks() {
    static wave_cache cache{};
    return one_wave(cache, reduce_partials<BlockThreads, R>, BlockThreads, fast_blocks_per_sm);
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
           partials, static_cast<typename R::result_type*>(nullptr), static_cast<unsigned*>(nullptr));
}

template <class R, bool Finish = true>
void enqueue_finalize(const R& r, const typename R::accumulator_type* partials, std::size_t count,
                      output_t<R, Finish>* result, cudaStream_t stream) {
    constexpr int B = tuning::block_threads;
    launch("reduce_finalize launch", reduce_finalize<B, R, Finish>, 1, B, stream, r, partials, count, result);
}

// A workspace of one launch that finishes in its last block (kernels.cuh): the completion
// counters first, in 16 KiB of their own (the fast sum counts with the first; the fixed
// order's in-launch tree with one per group of block values, fixed_order.cuh), then the
// values the blocks leave.
inline constexpr std::size_t counter_bytes = std::size_t{16} << 10;
struct counted_workspace {
    unsigned* done;
    void* values;
};
inline counted_workspace split_workspace(void* workspace) {
    return {static_cast<unsigned*>(workspace), static_cast<char*>(workspace) + counter_bytes};
}

inline bool is_default_stream(cudaStream_t stream) { return stream == cudaStreamPerThread || stream == cudaStream_t{}; }

// Which of this thread's cached workspaces a stream uses: one for the default streams (the
// per-thread stream, which the front end uses, and the legacy stream 0, which run in order
// with each other), else the stream's cudaStreamGetId, which the runtime never gives to
// another stream, where a handle is reused once its stream is destroyed.
inline unsigned long long stream_key(cudaStream_t stream) {
    if (is_default_stream(stream)) return 0;
    unsigned long long id = 0;
    check(cudaStreamGetId(stream, &id), "cudaStreamGetId");
    return id + 1;
}

// Workspace for the reductions this host thread enqueues on `stream`. Work on one stream runs
// in order, so each call reuses the previous call's buffer on that stream: no allocation and
// no clearing per call, which a stream-ordered pool would add to every call
// (docs/cuda-tuning.md). A buffer's completion counter is zeroed on the stream when the
// buffer is made, and every counted launch leaves it at 0. Buffers are freed with cudaFree,
// which first waits for the work that may still use them: when one grows, when the thread has
// used more streams than it keeps, and at thread exit.
inline counted_workspace cached_workspace(std::size_t bytes, cudaStream_t stream, int device) {
    struct entry {
        int device = -1;
        unsigned long long key = 0;
        void* ptr = nullptr;
        std::size_t size = 0;
        unsigned long long used = 0;  // when this thread last used it (a call count)
    };
    struct cache {
        std::array<entry, 8> entries{};
        unsigned long long calls = 0;
        ~cache() {
            for (entry& e : entries)
                if (e.ptr != nullptr) cudaFree(e.ptr);
        }
    };
    thread_local cache c;
    const unsigned long long key = stream_key(stream);
    bytes += counter_bytes;
    entry* slot = nullptr;
    for (entry& e : c.entries)
        if (e.ptr != nullptr && e.device == device && e.key == key) slot = &e;
    if (slot == nullptr) {  // an empty entry, else the least recently used
        slot = &c.entries[0];
        for (entry& e : c.entries)
            if (e.ptr == nullptr ? slot->ptr != nullptr : (slot->ptr != nullptr && e.used < slot->used)) slot = &e;
    }
    if (slot->ptr == nullptr || slot->device != device || slot->key != key || slot->size < bytes) {
        if (slot->ptr != nullptr) check(cudaFree(slot->ptr), "cudaFree (workspace)");
        *slot = entry{};
        const std::size_t size = bytes < (std::size_t{64} << 10) ? (std::size_t{64} << 10) : bytes;
        check(cudaMalloc(&slot->ptr, size), "cudaMalloc (workspace)");  // unmatched until its counter is zeroed
        check(cudaMemsetAsync(slot->ptr, 0, counter_bytes, stream), "cudaMemsetAsync (workspace counter)");
        slot->device = device;
        slot->key = key;
        slot->size = size;
    }
    slot->used = ++c.calls;
    return split_workspace(slot->ptr);
}

// The counted workspace of one launch on `stream`: the caller's, whose counter is zeroed on
// the stream first when the launch counts (zero_counter), or this thread's cached one on
// `device` (the current device, where the caller has not just asked: -1).
inline counted_workspace counted_workspace_for(std::size_t bytes, cudaStream_t stream, void* workspace,
                                               bool zero_counter = true, int device = -1) {
    if (workspace == nullptr) return cached_workspace(bytes, stream, device >= 0 ? device : current_device());
    if (zero_counter)
        check(cudaMemsetAsync(workspace, 0, sizeof(unsigned), stream), "cudaMemsetAsync (workspace counter)");
    return split_workspace(workspace);
}

// Device workspace the reduction of n elements needs: the counter and one accumulator per block.
template <class R>
std::size_t workspace_bytes(std::size_t n) {
    if (n <= current_tuning().single_block_max_elements) return 0;
    return counter_bytes +
           static_cast<std::size_t>(grid_for<tuning::block_threads, R>(n)) * sizeof(typename R::accumulator_type);
}

// Elements one block reduces alone on a device of tuning t: fewer when the input is read
// over the host link (remote).
template <class R>
std::size_t single_block_max(const tuning::table& t, bool remote) {
    if (!remote) return t.single_block_max_elements;
    return t.single_block_max_remote_bytes / sizeof(typename R::value_type);  // a zip's value: both arrays
}

// The whole reduction of device-accessible data into *d_result, enqueued on `stream`: one
// launch. d_result may be any memory the GPU can write, pinned host memory included.
// The workspace is the caller's when given (at least workspace_bytes<R>(n) bytes), else
// this thread's cached one for the stream (cached_workspace).
// Finish = false leaves the accumulator instead of the result, and base is the global
// index of data[0] (both for one part of a multi-GPU reduction, which keeps two launches).
// remote: data is read over the host link (pinned host memory), see single_block_max.

template <class R, bool Finish = true>
void enqueue_reduce(const R& r, source_t<R> data, std::size_t n, output_t<R, Finish>* d_result,
                    cudaStream_t stream, void* workspace = nullptr, std::size_t workspace_size = 0,
                    std::size_t base = 0, bool remote = false) {
    using A = typename R::accumulator_type;
    using Result = typename R::result_type;
    constexpr int B = tuning::block_threads;
    const int device = current_device();  // asked once: the tuning entry and the cached workspace are per device
    if (n <= single_block_max<R>(tuning::for_device(device), remote)) {
        // One block: its single partial is the accumulator, or it writes the finished result.
        if constexpr (Finish)
            launch("reduce_partials (single block) launch", reduce_partials<B, R>, 1, B, stream, r, data, n, base,
                   static_cast<A*>(nullptr), d_result, static_cast<unsigned*>(nullptr));
        else
            launch("reduce_partials (single block) launch", reduce_partials<B, R>, 1, B, stream, r, data, n, base,
                   d_result, static_cast<Result*>(nullptr), static_cast<unsigned*>(nullptr));
        return;
    }
    const int blocks = grid_for<B, R>(n);
    const std::size_t bytes = static_cast<std::size_t>(blocks) * sizeof(A);
    if (workspace != nullptr && workspace_size < bytes + counter_bytes)
        throw invalid_argument("preduce::cuda::reduce_async: workspace of " + std::to_string(workspace_size) +
                               " bytes, needs workspace_bytes() = " + std::to_string(bytes + counter_bytes));
    const counted_workspace ws = counted_workspace_for(bytes, stream, workspace, Finish, device);
    A* partials = static_cast<A*>(ws.values);
    if constexpr (Finish) {
        launch("reduce_partials launch", reduce_partials<B, R>, static_cast<unsigned>(blocks), B, stream, r, data, n,
               base, partials, d_result, ws.done);
    } else {
        enqueue_partials(r, data, n, base, blocks, partials, stream);
        enqueue_finalize<R, false>(r, static_cast<const A*>(partials), static_cast<std::size_t>(blocks), d_result,
                                   stream);
    }
}

} // namespace preduce::cuda::detail
