#pragma once
// Host data that the GPU cannot read directly (pageable memory) is streamed through two
// pinned staging chunks on two streams: while the GPU copies and reduces chunk k, the
// CPU fills the other staging chunk with chunk k+1. Each chunk leaves its block partials
// in one array; one finalize folds them all. A zip source's two arrays share each chunk.
#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstring>
#include <memory>

#include "preduce/cuda/grid/launch.cuh"
#include "preduce/cuda/grid/fixed_order.cuh"
#include "preduce/cuda/runtime/callback.hpp"
#include "preduce/cuda/runtime/device_tuning.hpp"
#include "preduce/cuda/runtime/memory.hpp"
#include "preduce/cuda/staging/parallel_copy.hpp"
#include "preduce/cuda/runtime/placement.hpp"
#include "preduce/cuda/tuning.hpp"
#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/errors.hpp"
#include "preduce/precision.hpp"

namespace preduce::cuda::detail {

// Per host thread: pinned chunks, streams and events are expensive to create (pinning
// megabytes costs milliseconds) and are reused across calls; one set per thread keeps
// concurrent callers apart.
struct staging_set {
    int device = -1;
    pinned_buffer chunk[2];
    stream streams[2];
    event copied[2];  // the copy out of chunk[b] has finished: the CPU may refill it
};

// Bytes of each staging chunk on the current device (tuning.hpp).
inline std::size_t staging_chunk_bytes() { return current_tuning().staging_chunk_bytes; }

inline staging_set& staging_for_this_thread() {
    thread_local std::unique_ptr<staging_set> set;
    const int device = current_device();
    if (!set || set->device != device) {
        set.reset();  // the old device's buffers go before the new ones are pinned
        auto fresh = std::make_unique<staging_set>();
        fresh->device = device;
        const std::size_t bytes = tuning::for_device(device).staging_chunk_bytes;
        fresh->chunk[0] = pinned_buffer(bytes);
        fresh->chunk[1] = pinned_buffer(bytes);
        set = std::move(fresh);
    }
    return *set;
}

// Elements per chunk of chunk_bytes and where each staged array sits inside a chunk: the
// arrays share the pinned chunk (and its device twin) side by side, one region each,
// 256-byte aligned.
template <std::size_t N>
struct chunk_layout {
    std::size_t elements = 0;
    std::array<std::size_t, N> offset{};  // bytes; only staged arrays have a region

    chunk_layout(std::size_t chunk_bytes, const std::array<std::size_t, N>& element_bytes,
                 const std::array<bool, N>& staged) {
        std::size_t row = 0;
        for (std::size_t c = 0; c < N; ++c)
            if (staged[c]) row += element_bytes[c];
        elements = chunk_bytes / row / 256 * 256;
        std::size_t at = 0;
        for (std::size_t c = 0; c < N; ++c)
            if (staged[c]) {
                offset[c] = at;
                at += elements * element_bytes[c];
            }
    }
};

// Streams src[0, n), of which at least one array is pageable host memory, chunk by chunk:
// pageable arrays through pinned staging, the others read in place. Chunks hold a multiple
// of `align` elements. For chunk k of `len` elements starting at element `begin`,
// on_chunk(part, len, begin, k, stream) enqueues the work on the chunk's stream; then both
// streams join result_stream, on_joined() enqueues the rest there, and the call waits for
// result_stream (the staging buffers go back to the pool after it).
// The loop of stage_from_host, compiled once per number of arrays (not once per reducer and
// order): the arrays as untyped pointers, each chunk handed to on_chunk.
template <std::size_t N>
void stage_chunks(const std::array<const void*, N>& whole, const std::array<std::size_t, N>& element_bytes,
                  std::size_t n, const std::array<bool, N>& pageable, std::size_t align, cudaStream_t result_stream,
                  callback<void(const std::array<const void*, N>&, std::size_t, std::size_t, std::size_t, cudaStream_t)>
                      on_chunk,
                  callback<void()> on_joined) {
    const std::size_t chunk_bytes = staging_chunk_bytes();
    const chunk_layout<N> layout(chunk_bytes, element_bytes, pageable);
    const std::size_t chunk_elements = layout.elements / align * align;
    if (chunk_elements == 0)
        throw invalid_argument("preduce::cuda: elements too large for the staging chunk");
    staging_set& st = staging_for_this_thread();
    const std::size_t chunks = (n + chunk_elements - 1) / chunk_elements;

    device_buffer staged[2] = {device_buffer(chunk_bytes, st.streams[0].get()),
                               device_buffer(chunk_bytes, st.streams[1].get())};
    // The second stream must not use its buffer before the first stream's allocation is ordered.
    check(cudaStreamSynchronize(st.streams[0].get()), "cudaStreamSynchronize");

    // On an error, let both streams drain before the buffers go back to the pool.
    struct drain_on_error {
        staging_set& st;
        bool armed = true;
        ~drain_on_error() {
            if (armed)
                for (auto& s : st.streams) cudaStreamSynchronize(s.get());
        }
    } guard{st};

    // An array read in place (the device half of a mixed zip) may still be being written by
    // work queued on the caller's stream: the staging streams start after it.
    event caller_ready;
    check(cudaEventRecord(caller_ready.get(), result_stream), "cudaEventRecord");
    for (auto& s : st.streams) check(cudaStreamWaitEvent(s.get(), caller_ready.get(), 0), "cudaStreamWaitEvent");

    for (std::size_t k = 0; k < chunks; ++k) {
        const int b = static_cast<int>(k % 2);
        cudaStream_t s = st.streams[b].get();
        const std::size_t begin = k * chunk_elements;
        const std::size_t len = n - begin < chunk_elements ? n - begin : chunk_elements;
        if (k >= 2) check(cudaEventSynchronize(st.copied[b].get()), "cudaEventSynchronize");
        std::array<const void*, N> part{};
        for (std::size_t c = 0; c < N; ++c) {
            const std::size_t size = element_bytes[c];
            const char* from = static_cast<const char*>(whole[c]) + begin * size;
            if (!pageable[c]) {
                part[c] = from;
                continue;
            }
            char* pinned = st.chunk[b].as<char>() + layout.offset[c];
            char* device = staged[b].as<char>() + layout.offset[c];
            copy_pool::instance().copy(pinned, from, len * size);
            check(cudaMemcpyAsync(device, pinned, len * size, cudaMemcpyHostToDevice, s), "cudaMemcpyAsync (staging)");
            part[c] = device;
        }
        check(cudaEventRecord(st.copied[b].get(), s), "cudaEventRecord");
        on_chunk(part, len, begin, k, s);
    }
    // Join both streams into the result stream.
    event done[2];
    for (int b = 0; b < 2; ++b) {
        check(cudaEventRecord(done[b].get(), st.streams[b].get()), "cudaEventRecord");
        check(cudaStreamWaitEvent(result_stream, done[b].get(), 0), "cudaStreamWaitEvent");
    }
    on_joined();
    check(cudaStreamSynchronize(result_stream), "cudaStreamSynchronize");
    guard.armed = false;
}

// Elements per staging chunk for src's arrays (rounded down to a multiple of align).
template <class S, class OnChunk, class OnJoined>
void stage_from_host(S src, std::size_t n, const std::array<bool, columns<S>::count>& pageable, std::size_t align,
                     cudaStream_t result_stream, OnChunk&& on_chunk, OnJoined&& on_joined) {
    using C = columns<S>;
    auto chunk = [&](const typename C::pointers& part, std::size_t len, std::size_t begin, std::size_t k,
                     cudaStream_t s) { on_chunk(C::make(part), len, begin, k, s); };
    stage_chunks<C::count>(C::of(src), C::element_bytes, n, pageable, align, result_stream, chunk, on_joined);
}

template <class S>
std::size_t staged_chunk_elements(const std::array<bool, columns<S>::count>& pageable, std::size_t align) {
    return chunk_layout<columns<S>::count>(staging_chunk_bytes(), columns<S>::element_bytes, pageable).elements / align *
           align;
}

// Reduces a source of which at least one array is pageable host memory: each chunk leaves
// its block partials after chunk k-1's, so the finalize folds them in input order.
// Finish = false leaves the accumulator; base is the global index of src[0] (multi-GPU parts).
template <class R, bool Finish = true>
void enqueue_reduce_from_host(const R& r, source_t<R> src, std::size_t n,
                              const std::array<bool, columns<source_t<R>>::count>& pageable,
                              output_t<R, Finish>* d_result, cudaStream_t result_stream, std::size_t base = 0) {
    using A = typename R::accumulator_type;
    constexpr int B = tuning::block_threads;
    const std::size_t chunk_elements = staged_chunk_elements<source_t<R>>(pageable, 1);
    const std::size_t chunks = (n + chunk_elements - 1) / chunk_elements;
    const int blocks = grid_for<B, R>(chunk_elements < n ? chunk_elements : n);
    device_buffer partials(chunks * static_cast<std::size_t>(blocks) * sizeof(A), result_stream);
    // Allocated on result_stream: the staging streams start after it (stage_from_host).
    stage_from_host(
        src, n, pageable, 1, result_stream,
        [&](source_t<R> part, std::size_t len, std::size_t begin, std::size_t k, cudaStream_t s) {
            enqueue_partials(r, part, len, base + begin, blocks, partials.as<A>() + k * blocks, s);
        },
        [&] {
            enqueue_finalize<R, Finish>(r, partials.as<A>(), chunks * static_cast<std::size_t>(blocks), d_result,
                                        result_stream);
        });
}

// The block values of the fixed order (precision::deterministic, compensated) over such a
// source into values[0, ceil(n / 4096)): chunks are whole 4096-element blocks, so chunk k's
// block values are values[k * chunk blocks + ...]. base (a multiple of 4096) is the global
// index of src[0]. on_joined() enqueues what follows on result_stream, once every chunk is in;
// values must have been allocated on result_stream (the staging streams start after it).
template <precision P, class R, class Then>
void stage_fixed_blocks(const R& r, source_t<R> src, std::size_t n, std::size_t base,
                        const std::array<bool, columns<source_t<R>>::count>& pageable,
                        ::preduce::detail::fixed_order::value_t<P, typename R::accumulator_type>* values,
                        cudaStream_t result_stream, Then&& on_joined) {
    namespace fixed_order = ::preduce::detail::fixed_order;
    const std::size_t chunk_blocks = staged_chunk_elements<source_t<R>>(pageable, fixed_order::block) / fixed_order::block;
    stage_from_host(
        src, n, pageable, fixed_order::block, result_stream,
        [&](source_t<R> part, std::size_t len, std::size_t begin, std::size_t k, cudaStream_t s) {
            fixed::enqueue_blocks<P>(r, part, len, base + begin, values + k * chunk_blocks, s);
        },
        on_joined);
}

// The whole fixed order over such a source: the block values, then the block tree over
// all of them.
template <precision P, class R>
void enqueue_fixed_from_host(const R& r, source_t<R> src, std::size_t n,
                             const std::array<bool, columns<source_t<R>>::count>& pageable,
                             typename R::result_type* d_result, cudaStream_t result_stream) {
    namespace fixed_order = ::preduce::detail::fixed_order;
    using V = fixed_order::value_t<P, typename R::accumulator_type>;
    const std::size_t m = fixed_order::block_count(n);
    device_buffer values((m + fixed::tree_scratch<V>(m)) * sizeof(V), result_stream);  // ordered as above
    stage_fixed_blocks<P>(r, src, n, 0, pageable, values.as<V>(), result_stream,
                          [&] { fixed::enqueue_tree<P>(r, values.as<V>(), m, values.as<V>() + m, d_result, result_stream); });
}

} // namespace preduce::cuda::detail
