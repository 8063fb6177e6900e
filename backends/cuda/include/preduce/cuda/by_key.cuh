#pragma once
// Runs of equal keys on the GPU, for keys and values in device (or managed) memory:
//   preduce::cuda::reduce_by_key(keys, values, n, op[, options]) -> by_key_result (host vectors)
//   preduce::cuda::reduce_by_key(keys, values, n, op, keys_out, values_out[, options]) -> runs
//                                                   (device outputs, as thrust::reduce_by_key)
// The runs are found by CUB's DeviceRunLengthEncode (== on the keys: -0.0 and +0.0 are one
// run, each NaN a run of its own, as the front end's host version) and turned into offsets
// by an inclusive scan of the run lengths; the values are then reduced per run as segments
// (grid/segmented_kernels.cuh). CUB counts items in int: n up to 2^31 - 1.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "preduce/by_key.hpp"
#include "preduce/cuda/reduce.cuh"

namespace preduce::cuda {

// Into the caller's device (or managed) outputs: keys_out and values_out hold n entries at
// least (every key may be a run). Returns the number of runs. Waits for the stream.
template <class K, class T, class Op, class Result>
std::size_t reduce_by_key(const K* keys, const T* values, std::size_t n, const Op& op, K* keys_out, Result* values_out,
                          const options& opts = {}) {
    namespace pd = ::preduce::detail;
    static_assert(!requires { typename Op::reshapes_result; },
                  "preduce::cuda::reduce_by_key returns the reducer's own result; for mean, variance and minmax use "
                  "moments / fused(min, max)");
    const auto r = pd::resolve_reducer<T>(op);
    using R = std::remove_cvref_t<decltype(r)>;
    static_assert(std::is_same_v<Result, typename R::result_type>, "values_out must be of the reducer's result type");
    if (n == 0) return 0;
    if (n > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw invalid_argument("preduce::cuda::reduce_by_key: " + std::to_string(n) +
                               " elements; runs are found with CUB, which counts items in int (at most 2^31 - 1)");
    pd::check_array(keys, n);
    pd::check_array(values, n);
    const detail::error_state_guard errors;
    cudaStream_t stream = opts.stream != nullptr ? static_cast<cudaStream_t>(opts.stream) : cudaStreamPerThread;
    const auto where = detail::classify(keys);
    if (where.where[0] == detail::memory_kind::host)
        throw invalid_argument("preduce::cuda::reduce_by_key: the keys are pageable host memory; give device, managed or "
                               "pinned keys, or call preduce::reduce_by_key, which finds the runs on the host");
    const detail::device_scope on_owner(where.owner);
    // Run lengths, then offsets in place (offsets[0] = 0, offsets[i + 1] = end of run i), and the count.
    detail::device_buffer offsets((n + 1) * sizeof(std::uint64_t), stream), count(sizeof(int), stream);
    std::uint64_t* ends = offsets.as<std::uint64_t>() + 1;
    std::size_t encode_bytes = 0, scan_bytes = 0;
    const int items = static_cast<int>(n);
    detail::check(cub::DeviceRunLengthEncode::Encode(nullptr, encode_bytes, keys, keys_out, ends, count.as<int>(), items, stream),
                  "cub::DeviceRunLengthEncode::Encode");
    detail::check(cub::DeviceScan::InclusiveSum(nullptr, scan_bytes, ends, ends, items, stream),
                  "cub::DeviceScan::InclusiveSum");
    detail::device_buffer temp(encode_bytes > scan_bytes ? encode_bytes : scan_bytes, stream);
    detail::check(cudaMemsetAsync(offsets.as<std::uint64_t>(), 0, sizeof(std::uint64_t), stream), "cudaMemsetAsync");
    detail::check(cub::DeviceRunLengthEncode::Encode(temp.as<void>(), encode_bytes, keys, keys_out, ends, count.as<int>(),
                                                      items, stream),
                  "cub::DeviceRunLengthEncode::Encode");
    int* runs = detail::result_slot<int>();
    detail::check(cudaMemcpyAsync(runs, count.as<int>(), sizeof(int), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
    detail::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    const auto m = static_cast<std::size_t>(*runs);
    detail::check(cub::DeviceScan::InclusiveSum(temp.as<void>(), scan_bytes, ends, ends, static_cast<int>(m), stream),
                  "cub::DeviceScan::InclusiveSum");
    options o = opts;
    o.stream = stream;
    reduce_segments_with(values, n, pd::offsets_form(offsets.as<const std::uint64_t>(), m), r, values_out, o);
    return m;
}

// The same into host vectors.
template <class K, class T, class Op>
auto reduce_by_key(const K* keys, const T* values, std::size_t n, const Op& op, const options& opts = {}) {
    using R = std::remove_cvref_t<decltype(::preduce::detail::resolve_reducer<T>(op))>;
    using Result = typename R::result_type;
    by_key_result<K, Result> out;
    if (n == 0) return out;
    cudaStream_t stream = opts.stream != nullptr ? static_cast<cudaStream_t>(opts.stream) : cudaStreamPerThread;
    detail::device_buffer keys_out(n * sizeof(K), stream), values_out(n * sizeof(Result), stream);
    const std::size_t m = reduce_by_key(keys, values, n, op, keys_out.as<K>(), values_out.as<Result>(), opts);
    out.keys.resize(m);
    out.values.resize(m);
    detail::check(cudaMemcpyAsync(out.keys.data(), keys_out.as<K>(), m * sizeof(K), cudaMemcpyDeviceToHost, stream),
                  "cudaMemcpyAsync (keys)");
    detail::check(cudaMemcpyAsync(out.values.data(), values_out.as<Result>(), m * sizeof(Result), cudaMemcpyDeviceToHost,
                                  stream),
                  "cudaMemcpyAsync (values)");
    detail::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    return out;
}

} // namespace preduce::cuda
