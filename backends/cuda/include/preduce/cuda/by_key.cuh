#pragma once
// Runs of equal keys on the GPU, for keys and values in device (or managed) memory:
//   preduce::cuda::reduce_by_key(keys, values, n, op[, options]) -> by_key_result (host vectors)
//   preduce::cuda::reduce_by_key(keys, values, n, op, keys_out, values_out[, options]) -> runs
//                                                   (device outputs, as thrust::reduce_by_key)
// A run is a stretch of keys equal by operator== (-0.0 and +0.0 are one run, each NaN a run
// of its own), as the front end's host version. Sizes are 64-bit.
//
// The fast order reads keys and values once (grid/by_key_kernels.cuh); its results are the
// same bits from call to call. Under precision::deterministic / compensated, and for an
// indexed reducer that cannot move its indices (no resume), the runs' heads are found by the same
// kernel and the values reduced as segments (grid/segmented_kernels.cuh), each run with
// the bits of reducing it alone.
#include <cuda_runtime_api.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "preduce/by_key.hpp"
#include "preduce/cuda/grid/by_key_kernels.cuh"
#include "preduce/cuda/reduce.cuh"

namespace preduce::cuda {

namespace detail::by_key {

// The one pass serves reducers whose results carry no index, and those that can move their
// indices (reducers.hpp: resume).
template <class R>
concept one_pass = !indexed_v<R> || requires(const R& r, const typename R::result_type& x) {
    { r.resume(x, std::uint64_t{0}) } -> std::convertible_to<typename R::accumulator_type>;
};

inline std::size_t aligned(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

// The runs of keys[0, n) into keys_out and, with Values, their results into values_out, or,
// without, their heads into heads_out. Returns the number of runs; waits for the stream.
template <bool Values, class K, class R>
std::uint64_t enqueue(const R& r, const K* keys, const typename R::value_type* values, std::uint64_t n, K* keys_out,
                      typename R::result_type* values_out, std::uint64_t* heads_out, cudaStream_t stream) {
    using A = typename R::accumulator_type;
    constexpr int threads = tuning::by_key_threads;
    constexpr int items = Values ? tuning::by_key_items(sizeof(K), sizeof(typename R::value_type),
                                                        sizeof(typename R::result_type))
                                 : tuning::by_key_items(sizeof(K), 0, sizeof(std::uint64_t));
    constexpr std::uint64_t tile = static_cast<std::uint64_t>(threads) * items;
    const std::uint64_t tiles = (n + tile - 1) / tile;
    if (tiles > static_cast<std::uint64_t>(INT_MAX))
        throw invalid_argument("preduce::cuda::reduce_by_key: " + std::to_string(n) + " pairs; at most " +
                               std::to_string(static_cast<std::uint64_t>(INT_MAX) * tile) + " are supported");
    const int t = static_cast<int>(tiles);
    std::size_t state_bytes = 0;
    check(count_state::AllocationSize(t, state_bytes), "cub::ScanTileState::AllocationSize");
    const std::size_t per_tile = Values ? 2 * sizeof(A) + 2 * sizeof(std::uint64_t) + 1 : 0;
    device_buffer scratch(aligned(state_bytes) + tiles * per_tile, stream);
    char* p = scratch.as<char>();
    count_state counts;
    check(counts.Init(t, p, state_bytes), "cub::ScanTileState::Init");
    p += aligned(state_bytes);
    tile_pieces<A> pieces{};
    pieces.runs = result_slot<unsigned long long>();  // written by the last tile, read here after the sync
    if constexpr (Values) {
        static_assert(alignof(A) <= alignof(std::uint64_t));
        pieces.open_head = reinterpret_cast<std::uint64_t*>(p);
        pieces.open_rank = pieces.open_head + tiles;
        pieces.prefix = reinterpret_cast<A*>(pieces.open_rank + tiles);
        pieces.open = pieces.prefix + tiles;
        pieces.status = reinterpret_cast<std::uint8_t*>(pieces.open + tiles);
    }
    launch("by_key init_counts launch", init_counts, static_cast<unsigned>((tiles + 255) / 256), 256, stream, counts, t);
    launch("by_key reduce_tiles launch", reduce_tiles<threads, items, Values, K, R>, static_cast<unsigned>(tiles),
           threads, stream, r, keys, values, n, keys_out, values_out, heads_out, pieces, counts);
    if constexpr (Values)
        launch("by_key join_runs launch", join_runs<R>, static_cast<unsigned>((tiles * 32 + 255) / 256), 256, stream, r,
               t, pieces, values_out);
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (kernel errors surface here)");
    return *pieces.runs;
}

} // namespace detail::by_key

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
    pd::check_array(keys, n);
    pd::check_array(values, n);
    const detail::error_state_guard errors;
    cudaStream_t stream = opts.stream != nullptr ? static_cast<cudaStream_t>(opts.stream) : cudaStreamPerThread;
    const auto where = detail::classify(keys);
    if (where.where[0] == detail::memory_kind::host)
        throw invalid_argument("preduce::cuda::reduce_by_key: the keys are pageable host memory; give device, managed or "
                               "pinned keys, or call preduce::reduce_by_key, which finds the runs on the host");
    const detail::device_scope on_owner(where.owner);
    if constexpr (detail::by_key::one_pass<R> && std::is_pointer_v<source_t<R>>) {
        if (opts.precision == precision::fast)
            return detail::by_key::enqueue<true>(r, keys, values, n, keys_out, values_out, nullptr, stream);
    }
    // The fixed orders: the runs' heads, then the values as segments.
    detail::device_buffer offsets((n + 1) * sizeof(std::uint64_t), stream);
    std::uint64_t* heads = offsets.as<std::uint64_t>();
    const std::uint64_t m = detail::by_key::enqueue<false>(r, keys, static_cast<const typename R::value_type*>(nullptr), n,
                                                           keys_out, static_cast<Result*>(nullptr), heads, stream);
    options o = opts;
    o.stream = stream;
    reduce_segments_with(values, n, pd::offsets_form(static_cast<const std::uint64_t*>(heads), m), r, values_out, o);
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
