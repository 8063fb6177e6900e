#pragma once
// The CUDA backend's header-only entry points (compile with nvcc):
//   preduce::cuda::reduce(data, n, op[, options])        -> result on the host
//   preduce::cuda::reduce(x, y, n, op[, options])        two inputs side by side (dot, zip transforms)
//   preduce::cuda::reduce_async(src, n, reducer, d_result[, workspace, bytes], stream)
//                                                          -> result left in device memory
//   preduce::cuda::reduce_parts(parts, op[, options])    one input spread over several GPUs
// op: a built-in (preduce::sum, preduce::minmax, ...), a reducer, or a user operation
// (custom.hpp) whose members are __host__ __device__. Data may be device, managed, pinned
// host or pageable host memory: the first three are read in place, pageable memory is
// streamed through pinned chunks; the two inputs of a zip are placed independently.
// options::gpus splits host and managed data over several GPUs (multi_gpu/).
//
// The layers, as in CUB: warp/ and block/ (shuffle and shared-memory trees), thread/ (what
// one thread folds: vector tiles, striped scalars, ordered runs), grid/ (the kernels and
// their launch shapes, the fixed order's kernels), staging/ (host data through pinned
// chunks), multi_gpu/ (several GPUs), runtime/ (errors, memory, where pointers live).
#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>
#include <type_traits>

#include "preduce/cuda/grid/fixed_order.cuh"
#include "preduce/cuda/grid/launch.cuh"
#include "preduce/cuda/grid/segmented_kernels.cuh"
#include "preduce/cuda/multi_gpu/multi_gpu.cuh"
#include "preduce/cuda/runtime/callback.hpp"
#include "preduce/cuda/runtime/check.hpp"
#include "preduce/cuda/runtime/memory.hpp"
#include "preduce/cuda/runtime/placement.hpp"
#include "preduce/cuda/staging/host_staging.cuh"
#include "preduce/detail/backend_contract/entry.hpp"
#include "preduce/cuda/info.hpp"
#include "preduce/options.hpp"
#include "preduce/precision.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda {

// Asynchronous: enqueues the reduction of device-accessible data on `stream` and leaves
// the finished result in *d_result (device memory). Returns before the GPU is done.
// reduce_async always sums in the fast order (it takes no options); reduce() with
// options::precision gives the deterministic and compensated orders.
// src is a pointer, or a preduce::zip_source{x, y} for reducers of two inputs.
template <class R>
void reduce_async(source_t<R> src, std::size_t n, const R& reducer, typename R::result_type* d_result,
                  cudaStream_t stream = cudaStreamPerThread) {
    const detail::error_state_guard errors;
    // A kernel reading memory it cannot reach ends the CUDA context for the whole process:
    // refuse pageable (where the GPU cannot read it) and freed inputs before launching.
    if (n != 0) detail::require_device_readable(detail::classify(src), "preduce::cuda::reduce_async");
    detail::enqueue_reduce(reducer, src, n, d_result, stream);
}

// Device workspace bytes reduce_async(..., workspace, bytes, stream) needs for n elements
// (0 for inputs a single block reduces), for callers that keep their own scratch memory.
template <class R>
std::size_t workspace_bytes(std::size_t n) {
    const detail::error_state_guard errors;
    return detail::workspace_bytes<R>(n);
}

// As above with the caller's device workspace of at least workspace_bytes<R>(n) bytes: no
// allocation at all, and the workspace may be reused once the stream has passed this call.
template <class R>
void reduce_async(source_t<R> src, std::size_t n, const R& reducer, typename R::result_type* d_result,
                  void* workspace, std::size_t workspace_size, cudaStream_t stream) {
    const detail::error_state_guard errors;
    if (n != 0) detail::require_device_readable(detail::classify(src), "preduce::cuda::reduce_async");
    detail::enqueue_reduce(reducer, src, n, d_result, stream, workspace, workspace_size);
}

// The core every entry point reaches (through PREDUCE_BACKEND_ENTRY_POINTS, which checks
// the options, picks the order P and answers empty inputs): src[0, n), n >= 1, wherever its
// arrays live, in order P.
template <precision P, class R>
typename R::result_type reduce_source(source_t<R> src, std::size_t n, const R& reducer, const options& opts) {
    using Result = typename R::result_type;
    static_assert(std::is_trivially_copyable_v<Result> && std::is_trivially_copyable_v<typename R::accumulator_type>,
                  "preduce::cuda: finish() runs on the GPU and its result is copied back bytewise; the accumulator "
                  "and result types must be trivially copyable");
    const detail::error_state_guard errors;
    const auto where = detail::classify(src);  // once: every layer below takes this answer
    if (detail::multi::splits(where, n, opts)) return detail::multi::reduce_split<P>(reducer, src, n, where, opts);
    cudaStream_t stream = opts.stream != nullptr ? static_cast<cudaStream_t>(opts.stream) : cudaStreamPerThread;
    const detail::device_scope on_owner(where.owner);
    // The last kernel writes the result straight into this thread's pinned slot, which
    // every GPU can write: no copy back, no device allocation for it. Data read in place
    // ends with that one write, which the host waits for (await_result); the host path
    // through pinned chunks synchronizes the stream.
    Result* host = detail::result_slot<Result>();
    const bool staged = where.any(detail::memory_kind::host);
    if (staged) {
        if constexpr (P == precision::fast) detail::enqueue_reduce_from_host(reducer, src, n, where.pageable(), host, stream);
        else detail::enqueue_fixed_from_host<P>(reducer, src, n, where.pageable(), host, stream);
        detail::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (kernel errors surface here)");
        return *host;
    }
    detail::prime_result(host);
    if constexpr (P == precision::fast)
        detail::enqueue_reduce(reducer, src, n, host, stream, nullptr, 0, 0, where.any(detail::memory_kind::pinned));
    else
        detail::fixed::enqueue_reduce<P>(reducer, src, n, host, stream);
    detail::await_result(host, stream);
    return *host;
}

namespace detail {
// The host side of a segmented call around its kernels, which does not depend on the reducer
// (compiled once per number of input arrays, not once per reducer and order): the arrays,
// offsets and output where they live, pageable ones copied over, then enqueue(arrays on the
// GPU, layout with offsets on the GPU, output on the GPU), then a pageable output copied back.
template <std::size_t N>
void segments_where_they_live(const std::array<const void*, N>& arrays_in, const std::array<std::size_t, N>& element_bytes,
                              std::size_t n, const ::preduce::detail::segment_layout& layout, void* out,
                              std::size_t result_bytes, cudaStream_t stream,
                              callback<void(const std::array<const void*, N>&, const ::preduce::detail::segment_layout&,
                                            void*)>
                                  enqueue) {
    namespace pd = ::preduce::detail;
    pd::segment_layout L = layout;
    // Where everything lives, asked once; then the GPU that owns device arrays runs it.
    const bool by_offsets = L.form == pd::segment_form::offsets;
    const auto offsets_where = by_offsets ? classify_arrays<1>({static_cast<const void*>(L.offsets)}) : placement<1>{};
    const auto offsets_at = offsets_where.where[0];
    if (by_offsets && offsets_at != memory_kind::device) pd::check_offsets(L.offsets, L.count, n);
    const std::uint64_t extent = !by_offsets ? L.extent() : offsets_at != memory_kind::device ? L.offsets[L.count] : n;
    const auto data_at = extent != 0 ? classify_arrays<N>(arrays_in) : placement<N>{};
    const auto out_at = classify_arrays<1>({static_cast<const void*>(out)});
    int owner = data_at.owner >= 0 ? data_at.owner : out_at.owner;
    if (owner < 0) owner = offsets_where.owner;
    const device_scope on_owner(owner);
    // Pageable arrays are copied over; the rest is read and written in place.
    device_buffer d_offsets;
    if (by_offsets && offsets_at == memory_kind::host) {
        d_offsets = device_buffer((L.count + 1) * sizeof(std::uint64_t), stream);
        check(cudaMemcpyAsync(d_offsets.as<std::uint64_t>(), L.offsets, (L.count + 1) * sizeof(std::uint64_t),
                              cudaMemcpyHostToDevice, stream),
              "cudaMemcpyAsync (offsets)");
        L.offsets = d_offsets.as<const std::uint64_t>();
    }
    std::array<const void*, N> arrays = arrays_in;
    std::array<device_buffer, N> d_data;
    if (extent != 0) {
        for (std::size_t c = 0; c < N; ++c) {
            if (data_at.where[c] != memory_kind::host) continue;
            const std::size_t bytes = extent * element_bytes[c];
            d_data[c] = device_buffer(bytes, stream);
            check(cudaMemcpyAsync(d_data[c].template as<void>(), arrays[c], bytes, cudaMemcpyHostToDevice, stream),
                  "cudaMemcpyAsync (data)");
            arrays[c] = d_data[c].template as<const void>();
        }
    }
    device_buffer d_out;
    void* target = out;
    if (out_at.where[0] == memory_kind::host) {
        d_out = device_buffer(L.count * result_bytes, stream);
        target = d_out.as<void>();
    }
    enqueue(arrays, L, target);
    if (target != out) {
        check(cudaMemcpyAsync(out, target, L.count * result_bytes, cudaMemcpyDeviceToHost, stream),
              "cudaMemcpyAsync (results)");
        check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    }
}
} // namespace detail

// One result per segment (detail/algorithm/segment_layout.hpp): src, the offsets and out may each be
// device, managed, pinned or pageable memory. Pageable inputs are copied to the GPU first
// (the data's extent, the offsets), a pageable output is written on the GPU and copied
// back; offsets the host can read are checked here, device-resident ones by the kernel.
template <precision P, class R>
void reduce_segments_source(source_t<R> src, std::size_t n, const ::preduce::detail::segment_layout& layout,
                            const R& reducer, typename R::result_type* out, const options& opts) {
    using Result = typename R::result_type;
    using C = detail::columns<source_t<R>>;
    static_assert(std::is_trivially_copyable_v<Result>, "preduce::cuda: results are copied back bytewise");
    const detail::error_state_guard errors;
    cudaStream_t stream = opts.stream != nullptr ? static_cast<cudaStream_t>(opts.stream) : cudaStreamPerThread;
    auto enqueue = [&](const typename C::pointers& arrays, const ::preduce::detail::segment_layout& L, void* target) {
        detail::segments::enqueue<P>(reducer, C::make(arrays), n, L, static_cast<Result*>(target), stream);
    };
    detail::segments_where_they_live<C::count>(C::of(src), C::element_bytes, n, layout, out, sizeof(Result), stream,
                                               enqueue);
}

PREDUCE_BACKEND_ENTRY_POINTS

// One reduction of an input spread over several GPUs of this process: the concatenation
// of the parts, in the order given (a part may be empty; several parts may share a GPU).
// Every GPU reduces its parts in place, all GPUs at once (one host thread each), and the
// host combines the parts' partial results in order: the same answer as one reduction of
// the concatenation, with argmin/argmax indices global, and with precision::deterministic
// and compensated the same bits as one GPU and the seq backend. options::gpus is not read
// (the parts name their GPUs); options::stream must be unset (a stream belongs to one GPU).
// The parts are read once work already queued on each GPU's legacy default stream is done;
// synchronise other streams that write them first.
// Throws preduce::invalid_argument for a device id out of range, null or misaligned data,
// or data that is not memory of the part's GPU (cudaPointerGetAttributes: device memory of
// that GPU, or managed memory).
template <class T, class Op>
auto reduce_parts(std::span<const device_part<T>> parts, const Op& op, const options& opts = {}) {
    const detail::error_state_guard errors;
    return ::preduce::detail::run_op<T>(op, [&](const auto& r) {
        using R = std::remove_cvref_t<decltype(r)>;
        return ::preduce::detail::with_order<R>(
            opts, [&](auto order) { return detail::multi::reduce_parts_of<decltype(order)::value>(parts, r, opts); });
    });
}

template <class T, class Op>
auto reduce_parts(const std::vector<device_part<T>>& parts, const Op& op, const options& opts = {}) {
    return reduce_parts(std::span<const device_part<T>>(parts), op, opts);
}

} // namespace preduce::cuda
