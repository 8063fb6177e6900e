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
// options::gpus splits host and managed data over several GPUs (multi_gpu.cuh).
#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "preduce/cuda/check.hpp"
#include "preduce/cuda/dispatch.cuh"
#include "preduce/cuda/fixed_order.cuh"
#include "preduce/cuda/host_staging.cuh"
#include "preduce/cuda/memory.hpp"
#include "preduce/cuda/multi_gpu.cuh"
#include "preduce/cuda/residence.hpp"
#include "preduce/cuda/tuning.hpp"
#include "preduce/detail/deterministic.hpp"
#include "preduce/detail/entry.hpp"
#include "preduce/errors.hpp"
#include "preduce/options.hpp"
#include "preduce/precision.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda {

namespace detail {

// Whether det::support_of<R> can classify R: it reads R::kind for floating accumulators.
template <class R>
inline constexpr bool knows_precision =
    !std::is_floating_point_v<typename R::accumulator_type> || requires { R::kind; };

template <class R>
constexpr bool takes_fixed_order() {
    if constexpr (knows_precision<R>) return ::preduce::detail::det::takes_fixed_order_v<R>;
    else return false;
}

// Whether options::precision asks R for the fixed order; throws where R cannot honour it.
template <class R>
bool wants_fixed_order(const options& opts) {
    namespace det = ::preduce::detail::det;
    if constexpr (!knows_precision<R>) {
        // A reducer with a floating accumulator and no combine_kind: not a sum we know.
        if (opts.precision != precision::fast)
            throw invalid_argument(std::string("preduce: precision::") + name(opts.precision) +
                                   " covers sums of floating-point values and the exact operations; '" +
                                   det::name_of<R>() + "' is neither");
        return false;
    } else if constexpr (takes_fixed_order<R>()) {
        return opts.precision != precision::fast;
    } else {
        det::check_precision<R>(opts.precision);
        return false;
    }
}

// The pieces of a multi-GPU reduction, in the order opts.precision asks for.
template <class R>
typename R::result_type reduce_pieces(const R& r, const std::vector<multi::piece<source_t<R>>>& pieces, std::size_t n,
                                      bool fixed_order, precision p) {
    if constexpr (takes_fixed_order<R>()) {
        if (fixed_order && p == precision::compensated) return multi::reduce_fixed<precision::compensated>(r, pieces, n);
        if (fixed_order) return multi::reduce_fixed<precision::deterministic>(r, pieces, n);
    }
    return multi::reduce_fast(r, pieces);
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
    // A kernel reading memory it cannot reach ends the CUDA context for the whole process:
    // refuse pageable (where the GPU cannot read it) and freed inputs before launching.
    detail::require_device_readable(detail::columns<source_t<R>>::of(src), n, "preduce::cuda::reduce_async");
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
    detail::require_device_readable(detail::columns<source_t<R>>::of(src), n, "preduce::cuda::reduce_async");
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
    cudaStream_t stream = opts.stream != nullptr ? static_cast<cudaStream_t>(opts.stream) : cudaStreamPerThread;
    const bool fixed_order = detail::wants_fixed_order<R>(opts);
    if (opts.gpus != 1) {
        // Several GPUs: host (pageable or pinned) and managed memory are split into k
        // contiguous parts. Device memory lives on one GPU and is refused, rather than read
        // by the others over the interconnect: spread it with reduce_parts instead.
        const int k = detail::multi::gpus_for(opts);
        if (n != 0)
            for (const void* p : C::of(src)) {
                cudaPointerAttributes attr{};
                detail::check(cudaPointerGetAttributes(&attr, p), "cudaPointerGetAttributes");
                if (attr.type == cudaMemoryTypeDevice)
                    throw invalid_argument("preduce::cuda: options::gpus = " + std::to_string(opts.gpus) +
                                           " splits host data over several GPUs, but this input is in the memory of GPU " +
                                           std::to_string(attr.device) +
                                           "; use gpus = 1 for it, or give each GPU its part with preduce::cuda::reduce_parts");
            }
        if (k >= 2 && n >= tuning::multi_gpu_min_elements)
            return detail::reduce_pieces(reducer, detail::multi::split_pieces(src, n, k), n, fixed_order, opts.precision);
        options one = opts;  // small inputs, or a single visible GPU: the current GPU alone
        one.gpus = 1;
        return reduce_source(src, n, reducer, one);
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

// One part of an input spread over the GPUs of this process: n elements at data, in the
// memory of GPU `device` (cudaMalloc'ed there, or managed memory).
template <class T>
struct device_part {
    int device;
    const T* data;
    std::size_t n;
};

namespace detail {

// Checks the parts and turns them into pieces at their global positions.
template <class T>
std::vector<multi::piece<const T*>> pieces_of(std::span<const device_part<T>> parts, const options& opts) {
    const auto where = [](std::size_t i) { return "preduce::cuda::reduce_parts: part " + std::to_string(i); };
    if (opts.stream != nullptr)
        throw invalid_argument("preduce::cuda::reduce_parts: options::stream is set, but a stream belongs to one GPU "
                               "and the parts may live on several; leave it unset");
    const int count = parts.empty() ? 0 : multi::visible_devices();
    std::vector<multi::piece<const T*>> pieces;
    std::size_t offset = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const device_part<T>& p = parts[i];
        if (p.device < 0 || p.device >= count)
            throw invalid_argument(where(i) + " names device " + std::to_string(p.device) + ", but " + std::to_string(count) +
                                   " GPU" + (count == 1 ? " is" : "s are") + " visible (devices 0 to " +
                                   std::to_string(count - 1) + ")");
        if (p.n != 0) {
            if (p.data == nullptr)
                throw invalid_argument(where(i) + " has n = " + std::to_string(p.n) + " but data is null");
            if (reinterpret_cast<std::uintptr_t>(p.data) % alignof(T) != 0)
                throw invalid_argument(where(i) + ": data is not aligned to its element type (" +
                                       std::to_string(alignof(T)) + " bytes)");
            if (p.n > (std::numeric_limits<std::size_t>::max() - offset) / sizeof(T))
                throw invalid_argument(where(i) + ": n = " + std::to_string(p.n) + " elements exceeds the address space");
            // The first and the last element must be memory of that GPU (or managed memory):
            // catches a wrong device, host memory, and an n past the end of a small allocation.
            const T* const ends[2] = {p.data, p.data + (p.n - 1)};
            for (const T* at : ends) {
                cudaPointerAttributes attr{};
                check(cudaPointerGetAttributes(&attr, at), "cudaPointerGetAttributes");
                const bool ok = attr.type == cudaMemoryTypeManaged ||
                                (attr.type == cudaMemoryTypeDevice && attr.device == p.device);
                if (ok) continue;
                const std::string elem = at == p.data ? "data" : "data + n - 1 (n = " + std::to_string(p.n) + ")";
                std::string is;
                switch (attr.type) {
                case cudaMemoryTypeDevice: is = "memory of GPU " + std::to_string(attr.device); break;
                case cudaMemoryTypeHost: is = "pinned host memory"; break;
                default: is = "unregistered memory (pageable host memory, or past the end of an allocation)"; break;
                }
                throw invalid_argument(where(i) + ": " + elem + " is " + is + ", not memory of GPU " +
                                       std::to_string(p.device) + "; host data goes to preduce::cuda::reduce with options::gpus");
            }
        }
        pieces.push_back({p.device, p.data, p.n, offset});
        offset += p.n;
    }
    return pieces;
}

template <class R>
typename R::result_type reduce_parts_of(std::span<const device_part<typename R::value_type>> parts, const R& r,
                                        const options& opts) {
    static_assert(std::is_trivially_copyable_v<typename R::accumulator_type>,
                  "preduce::cuda: accumulators are copied back from the GPU bytewise and must be trivially copyable");
    const bool fixed_order = wants_fixed_order<R>(opts);
    const auto pieces = pieces_of(parts, opts);
    std::size_t n = 0;
    for (const auto& p : pieces) n += p.n;
    return reduce_pieces(r, pieces, n, fixed_order, opts.precision);
}

} // namespace detail

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
    return ::preduce::detail::run_op<T>(op, [&](const auto& r) { return detail::reduce_parts_of(parts, r, opts); });
}

template <class T, class Op>
auto reduce_parts(const std::vector<device_part<T>>& parts, const Op& op, const options& opts = {}) {
    return reduce_parts(std::span<const device_part<T>>(parts), op, opts);
}

} // namespace preduce::cuda
