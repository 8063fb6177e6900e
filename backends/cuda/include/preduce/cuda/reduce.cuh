#pragma once
// The CUDA backend's header-only entry points (compile with nvcc):
//   preduce::cuda::reduce(data, n, op[, options])        -> result on the host
//   preduce::cuda::reduce(x, y, n, op[, options])        two inputs side by side (dot, zip transforms)
//   preduce::cuda::reduce_async(src, n, reducer, d_result[, workspace, bytes], stream)
//                                                          -> result left in device memory
// op: a built-in (preduce::sum, preduce::minmax, ...), a reducer, or a user operation
// (custom.hpp) whose members are __host__ __device__. Data may be device, managed, pinned
// host or pageable host memory: the first three are read in place, pageable memory is
// streamed through pinned chunks; the two inputs of a zip are placed independently.
#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <string>
#include <type_traits>

#include "preduce/cuda/check.hpp"
#include "preduce/cuda/dispatch.cuh"
#include "preduce/cuda/fixed_order.cuh"
#include "preduce/cuda/host_staging.cuh"
#include "preduce/cuda/memory.hpp"
#include "preduce/cuda/residence.hpp"
#include "preduce/detail/deterministic.hpp"
#include "preduce/detail/entry.hpp"
#include "preduce/errors.hpp"
#include "preduce/options.hpp"
#include "preduce/precision.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda {

namespace detail {

// One pinned result slot per host thread: the result's copy back is then a plain DMA.
template <class Result>
Result* result_slot() {
    thread_local pinned_buffer slot(sizeof(Result) < 256 ? 256 : sizeof(Result));
    return slot.as<Result>();
}

// Whether det::support_of<R> can classify R: it reads R::kind for floating accumulators.
template <class R>
inline constexpr bool knows_precision =
    !std::is_floating_point_v<typename R::accumulator_type> || requires { R::kind; };

template <class R>
constexpr bool takes_fixed_order() {
    if constexpr (knows_precision<R>) return ::preduce::detail::det::takes_fixed_order_v<R>;
    else return false;
}

// precision::deterministic or compensated (P) over src[0, n), n >= 1, into *d_result.
// grid: blocks of the block-value kernel on in-place data (0: one wave); the result's bits
// do not depend on it (tests vary it).
template <precision P, class R>
void enqueue_fixed(const R& r, source_t<R> src, std::size_t n, const std::array<bool, columns<source_t<R>>::count>& pageable,
                   typename R::result_type* d_result, cudaStream_t stream, int grid = 0) {
    bool any_pageable = false;
    for (bool p : pageable) any_pageable = any_pageable || p;
    if (any_pageable) enqueue_fixed_from_host<P>(r, src, n, pageable, d_result, stream);
    else fixed::enqueue_reduce<P>(r, src, n, d_result, stream, grid);
}

} // namespace detail

// Asynchronous: enqueues the reduction of device-accessible data on `stream` and leaves
// the finished result in *d_result (device memory). Returns before the GPU is done.
// reduce_async always sums in the fast order (it takes no options); reduce() with
// options::precision gives the deterministic and compensated orders.
// src is a pointer, or a preduce::zip_source{x, y} for reducers of two inputs.
template <class R>
void reduce_async(source_t<R> src, std::size_t n, const R& reducer, typename R::result_type* d_result,
                  cudaStream_t stream = cudaStreamPerThread) {
    detail::enqueue_reduce(reducer, src, n, d_result, stream);
}

// Device workspace bytes reduce_async(..., workspace, bytes, stream) needs for n elements
// (0 for inputs a single block reduces), for callers that keep their own scratch memory.
template <class R>
std::size_t workspace_bytes(std::size_t n) {
    return detail::workspace_bytes<R>(n);
}

// As above with the caller's device workspace of at least workspace_bytes<R>(n) bytes: no
// allocation at all, and the workspace may be reused once the stream has passed this call.
template <class R>
void reduce_async(source_t<R> src, std::size_t n, const R& reducer, typename R::result_type* d_result,
                  void* workspace, std::size_t workspace_size, cudaStream_t stream) {
    detail::enqueue_reduce(reducer, src, n, d_result, stream, workspace, workspace_size);
}

// The core every entry point reaches: the reducer over src, wherever its arrays live.
template <class R>
typename R::result_type reduce_source(source_t<R> src, std::size_t n, const R& reducer, const options& opts = {}) {
    using Result = typename R::result_type;
    using C = detail::columns<source_t<R>>;
    static_assert(std::is_trivially_copyable_v<Result> && std::is_trivially_copyable_v<typename R::accumulator_type>,
                  "preduce::cuda: finish() runs on the GPU and its result is copied back bytewise; the accumulator "
                  "and result types must be trivially copyable");
    namespace det = ::preduce::detail::det;
    cudaStream_t stream = opts.stream != nullptr ? static_cast<cudaStream_t>(opts.stream) : cudaStreamPerThread;
    bool fixed_order = false;
    if constexpr (!detail::knows_precision<R>) {
        // A reducer with a floating accumulator and no combine_kind: not a sum we know.
        if (opts.precision != precision::fast)
            throw invalid_argument(std::string("preduce: precision::") + name(opts.precision) +
                                   " covers sums of floating-point values and the exact operations; '" +
                                   det::name_of<R>() + "' is neither");
    } else if constexpr (detail::takes_fixed_order<R>()) {
        fixed_order = opts.precision != precision::fast;
    } else {
        det::check_precision<R>(opts.precision);
    }
    // The fixed order of an empty input: the identity, finished (what the tree's empty case gives).
    if (fixed_order && n == 0) return reducer.finish(R::identity());
    const detail::device_scope<C::count> scope(C::of(src), n == 0);
    detail::device_buffer d_result(sizeof(Result), stream);
    if (fixed_order) {
        if constexpr (detail::takes_fixed_order<R>()) {
            if (opts.precision == precision::compensated)
                detail::enqueue_fixed<precision::compensated>(reducer, src, n, scope.pageable, d_result.as<Result>(), stream);
            else
                detail::enqueue_fixed<precision::deterministic>(reducer, src, n, scope.pageable, d_result.as<Result>(), stream);
        }
    } else if (scope.any_pageable()) {
        detail::enqueue_reduce_from_host(reducer, src, n, scope.pageable, d_result.as<Result>(), stream);
    } else {
        detail::enqueue_reduce(reducer, src, n, d_result.as<Result>(), stream);
    }
    Result* host = detail::result_slot<Result>();
    detail::check(cudaMemcpyAsync(host, d_result.as<Result>(), sizeof(Result), cudaMemcpyDeviceToHost, stream),
                  "cudaMemcpyAsync (result)");
    detail::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (kernel errors surface here)");
    return *host;
}

PREDUCE_BACKEND_ENTRY_POINTS

} // namespace preduce::cuda
