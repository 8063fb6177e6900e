#pragma once
// Many results per call, through the compiled front end (the built-in operations):
//
//   reduce_segments(b, data, offsets, op[, out][, options])   segment i = [offsets[i], offsets[i+1])
//   reduce_batches(b, data, k, op[, out][, options])          n / k segments of k elements
//   reduce_axes(b, data, shape, axes, op[, out][, options])   NumPy's x.<op>(axis=axes)
//   reduce_by_key(b, keys, values, op[, options])              runs of equal keys (thrust::reduce_by_key)
//   runs_of(keys, n)                                           those runs: first keys and offsets
//
// Every segment obeys every rule of a whole-array reduce() as if it were reduced alone:
// the identity for an empty segment ({identity, no_index} for argmin/argmax), indices
// counted from the segment's first element, NaN and tie rules, and under
// precision::deterministic / compensated the bits of reducing that segment alone.
// Two-input operations (dot) take x and y side by side, as reduce() does.
//
// `out` is a span or pointer of the op's result type (result_of_t<T, Op>); the overloads
// without `out` return a std::vector. With the cuda backend, data, offsets and out may be
// device, managed or pinned memory (host data is streamed); the other backends refuse
// device memory. Bad input (decreasing offsets, an offset past the data, an output too
// short, an axis out of range, keys and values of different lengths) is invalid_argument
// before any work. Sizes are 64-bit throughout.
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "preduce/backend.hpp"
#include "preduce/by_key.hpp"
#include "preduce/detail/algorithm/axes.hpp"
#include "preduce/detail/backend_contract/entry.hpp"
#include "preduce/detail/runtime/residence.hpp"
#include "preduce/detail/routing/linking.hpp"
#include "preduce/detail/algorithm/segment_layout.hpp"
#include "preduce/errors.hpp"
#include "preduce/options.hpp"
#include "preduce/reduce.hpp"

namespace preduce {

namespace detail {

// Runs the reducer of Op over the layout into out (host or, for the cuda backend, device
// memory). Ops that reshape their result (mean, variance, minmax) are computed in the
// reducer's own result type and reshaped on the host.
template <class V, class Op>
void run_segments(backend b, source_t<resolved_t<V, Op>> src, std::uint64_t n, const segment_layout& layout, const Op& op,
                  result_of_t<V, Op>* out, const options& opts, const char* call) {
    const auto reducer = resolve_reducer<V>(op);
    using R = std::remove_cvref_t<decltype(reducer)>;
    check_compiled<V, R>();
    using Result = typename R::result_type;
    if constexpr (std::is_same_v<Result, result_of_t<V, Op>>) {
        route_segments(b, src, n, layout, reducer, out, opts);
    } else {
        if (layout.count != 0 && locate(out) == memory_kind::device)
            throw invalid_argument(std::string(call) +
                                   ": this operation reshapes its result on the host (mean, variance, minmax), so its "
                                   "output cannot be device memory; use moments or fused(min, max) into device memory, "
                                   "or give a host output");
        std::vector<Result> raw(layout.count);
        route_segments(b, src, n, layout, reducer, raw.data(), opts);
        for (std::uint64_t s = 0; s < layout.count; ++s) out[s] = project(op, raw[s]);
    }
}

} // namespace detail

// ---- segments by offsets --------------------------------------------------------------------

template <class T, operation_for<std::remove_const_t<T>> Op>
void reduce_segments(backend b, const T* data, std::size_t n, const std::uint64_t* offsets, std::size_t m, const Op& op,
                     result_of_t<std::remove_const_t<T>, Op>* out, const options& opts = {}) {
    using V = std::remove_const_t<T>;
    const detail::segment_layout L = detail::offsets_form(offsets, m);
    detail::check_output(out, m, m, "preduce::reduce_segments");
    detail::run_segments<V>(b, static_cast<const V*>(data), n, L, op, out, opts, "preduce::reduce_segments");
}

template <class A, class B, operation_for<zip_value<std::remove_const_t<A>, std::remove_const_t<B>>> Op>
void reduce_segments(backend b, const A* x, const B* y, std::size_t n, const std::uint64_t* offsets, std::size_t m,
                     const Op& op, result_of_t<zip_value<std::remove_const_t<A>, std::remove_const_t<B>>, Op>* out,
                     const options& opts = {}) {
    using V = zip_value<std::remove_const_t<A>, std::remove_const_t<B>>;
    const detail::segment_layout L = detail::offsets_form(offsets, m);
    detail::check_output(out, m, m, "preduce::reduce_segments");
    detail::run_segments<V>(b, source_t<detail::resolved_t<V, Op>>{x, y}, n, L, op, out, opts, "preduce::reduce_segments");
}

template <std::ranges::contiguous_range D, std::ranges::contiguous_range O, std::ranges::contiguous_range Out, class Op>
    requires std::ranges::sized_range<D> && std::ranges::sized_range<O> && std::ranges::sized_range<Out>
void reduce_segments(backend b, D&& data, O&& offsets, const Op& op, Out&& out, const options& opts = {}) {
    const auto k = static_cast<std::size_t>(std::ranges::size(offsets));
    const std::size_t m = k == 0 ? 0 : k - 1;
    if (k == 0)
        throw invalid_argument("preduce::reduce_segments: offsets is empty; m segments need m + 1 offsets (one, 0, for none)");
    detail::check_output(std::ranges::data(out), m, static_cast<std::size_t>(std::ranges::size(out)),
                         "preduce::reduce_segments");
    reduce_segments(b, std::ranges::data(data), static_cast<std::size_t>(std::ranges::size(data)),
                    std::ranges::data(offsets), m, op, std::ranges::data(out), opts);
}

template <std::ranges::contiguous_range D, std::ranges::contiguous_range O, class Op>
    requires std::ranges::sized_range<D> && std::ranges::sized_range<O> &&
             operation_for<Op, std::remove_cvref_t<std::ranges::range_value_t<D>>>
auto reduce_segments(backend b, D&& data, O&& offsets, const Op& op, const options& opts = {}) {
    using V = std::remove_cvref_t<std::ranges::range_value_t<D>>;
    const auto k = static_cast<std::size_t>(std::ranges::size(offsets));
    std::vector<result_of_t<V, Op>> out(k == 0 ? 0 : k - 1);
    reduce_segments(b, data, offsets, op, out, opts);
    return out;
}

// ---- fixed-size segments --------------------------------------------------------------------

template <class T, operation_for<std::remove_const_t<T>> Op>
void reduce_batches(backend b, const T* data, std::size_t n, std::size_t k, const Op& op,
                    result_of_t<std::remove_const_t<T>, Op>* out, const options& opts = {}) {
    using V = std::remove_const_t<T>;
    const detail::segment_layout L = detail::batches_form(n, k);
    detail::check_output(out, L.count, L.count, "preduce::reduce_batches");
    detail::run_segments<V>(b, static_cast<const V*>(data), n, L, op, out, opts, "preduce::reduce_batches");
}

template <class A, class B, operation_for<zip_value<std::remove_const_t<A>, std::remove_const_t<B>>> Op>
void reduce_batches(backend b, const A* x, const B* y, std::size_t n, std::size_t k, const Op& op,
                    result_of_t<zip_value<std::remove_const_t<A>, std::remove_const_t<B>>, Op>* out,
                    const options& opts = {}) {
    using V = zip_value<std::remove_const_t<A>, std::remove_const_t<B>>;
    const detail::segment_layout L = detail::batches_form(n, k);
    detail::check_output(out, L.count, L.count, "preduce::reduce_batches");
    detail::run_segments<V>(b, source_t<detail::resolved_t<V, Op>>{x, y}, n, L, op, out, opts, "preduce::reduce_batches");
}

template <std::ranges::contiguous_range D, std::ranges::contiguous_range Out, class Op>
    requires std::ranges::sized_range<D> && std::ranges::sized_range<Out>
void reduce_batches(backend b, D&& data, std::size_t k, const Op& op, Out&& out, const options& opts = {}) {
    const auto n = static_cast<std::size_t>(std::ranges::size(data));
    const detail::segment_layout L = detail::batches_form(n, k);
    detail::check_output(std::ranges::data(out), L.count, static_cast<std::size_t>(std::ranges::size(out)),
                         "preduce::reduce_batches");
    reduce_batches(b, std::ranges::data(data), n, k, op, std::ranges::data(out), opts);
}

template <std::ranges::contiguous_range D, class Op>
    requires std::ranges::sized_range<D> && operation_for<Op, std::remove_cvref_t<std::ranges::range_value_t<D>>>
auto reduce_batches(backend b, D&& data, std::size_t k, const Op& op, const options& opts = {}) {
    using V = std::remove_cvref_t<std::ranges::range_value_t<D>>;
    const auto n = static_cast<std::size_t>(std::ranges::size(data));
    std::vector<result_of_t<V, Op>> out(detail::batches_form(n, k).count);
    reduce_batches(b, data, k, op, out, opts);
    return out;
}

// ---- axis reductions ------------------------------------------------------------------------

// data: a row-major array of `shape` (C order); axes: the axes to reduce (negative ones count
// from the end; an empty list reduces nothing). out: one result per index of the kept axes,
// in C order (NumPy's keepdims=False shape). A shape with two or more separate groups of
// reduced axes (axes 0 and 2 of a 3-D array) is gathered into a host copy first.
template <class T, operation_for<std::remove_const_t<T>> Op>
void reduce_axes(backend b, const T* data, std::span<const std::size_t> shape, std::span<const int> axes, const Op& op,
                 result_of_t<std::remove_const_t<T>, Op>* out, std::size_t out_size, const options& opts = {}) {
    using V = std::remove_const_t<T>;
    const char* call = "preduce::reduce_axes";
    const detail::axes_plan p = detail::plan_axes(shape, axes, call);
    detail::check_output(out, p.layout.count, out_size, call);
    if (!p.gather) {
        detail::run_segments<V>(b, static_cast<const V*>(data), p.elements, p.layout, op, out, opts, call);
        return;
    }
    if (p.elements != 0 && detail::locate(data) == detail::memory_kind::device)
        throw invalid_argument(std::string(call) + ": these axes (two or more separate groups of reduced axes) need a "
                               "host copy of the data in [kept, reduced] order, and the data is device memory; reduce "
                               "the groups one call at a time, or give host data");
    detail::check_source(static_cast<const V*>(data), p.elements);
    std::vector<V> gathered(p.elements);
    detail::gather_kept_then_reduced(static_cast<const V*>(data), p, gathered.data());
    detail::run_segments<V>(b, gathered.data(), p.elements, p.layout, op, out, opts, call);
}

template <class T, class Op>
    requires operation_for<Op, std::remove_const_t<T>>
auto reduce_axes(backend b, const T* data, std::span<const std::size_t> shape, std::span<const int> axes, const Op& op,
                 const options& opts = {}) {
    using V = std::remove_const_t<T>;
    std::vector<result_of_t<V, Op>> out(detail::plan_axes(shape, axes, "preduce::reduce_axes").layout.count);
    reduce_axes(b, data, shape, axes, op, out.data(), out.size(), opts);
    return out;
}

// ---- runs of equal keys -----------------------------------------------------------------------

// The runs of consecutive equal keys of keys[0, n) (operator==: -0.0 and +0.0 are one run,
// every NaN a run of its own), found on the host: the first key of each run, and the m + 1
// offsets that bound the m runs, ready for reduce_segments. reduce_by_key is this and then
// reduce_segments over the values.
template <class K>
struct key_runs {
    std::vector<K> keys;
    std::vector<std::uint64_t> offsets;
};

template <class K>
key_runs<std::remove_const_t<K>> runs_of(const K* keys, std::size_t n) {
    key_runs<std::remove_const_t<K>> r;
    r.offsets.push_back(0);
    if (n == 0) return r;
    detail::check_source(keys, n);
    if (detail::locate(keys) == detail::memory_kind::device)
        throw invalid_argument("preduce::reduce_by_key: the keys are device memory; the runs are found on the host (give "
                               "host keys), or call preduce::cuda::reduce_by_key (preduce/cuda/by_key.cuh) from CUDA code");
    r.keys.push_back(keys[0]);
    for (std::size_t i = 1; i < n; ++i)
        if (!(keys[i] == keys[i - 1])) {
            r.offsets.push_back(i);
            r.keys.push_back(keys[i]);
        }
    r.offsets.push_back(n);
    return r;
}

// Runs of consecutive equal keys (runs_of) and, for each, the reduction of the values beside
// them, as thrust::reduce_by_key. keys and values: host memory (the runs are found on the
// host; values may then go to any backend).
template <class K, class T, operation_for<std::remove_const_t<T>> Op>
auto reduce_by_key(backend b, const K* keys, const T* values, std::size_t n, const Op& op, const options& opts = {}) {
    using V = std::remove_const_t<T>;
    by_key_result<std::remove_const_t<K>, result_of_t<V, Op>> r;
    if (n == 0) return r;
    key_runs<std::remove_const_t<K>> runs = runs_of(keys, n);
    r.keys = std::move(runs.keys);
    r.values.resize(r.keys.size());
    reduce_segments(b, values, n, runs.offsets.data(), r.keys.size(), op, r.values.data(), opts);
    return r;
}

template <std::ranges::contiguous_range Keys, std::ranges::contiguous_range Values, class Op>
    requires std::ranges::sized_range<Keys> && std::ranges::sized_range<Values>
auto reduce_by_key(backend b, Keys&& keys, Values&& values, const Op& op, const options& opts = {}) {
    const auto nk = static_cast<std::size_t>(std::ranges::size(keys));
    const auto nv = static_cast<std::size_t>(std::ranges::size(values));
    if (nk != nv)
        throw invalid_argument("preduce::reduce_by_key: " + std::to_string(nk) + " keys but " + std::to_string(nv) +
                               " values; give one key per value");
    return reduce_by_key(b, std::ranges::data(keys), std::ranges::data(values), nk, op, opts);
}

} // namespace preduce
