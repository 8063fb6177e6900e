#pragma once
// What every backend does before its own work, written once: turn the caller's op into a
// reducer for the element type (run_op), check the options and the input arrays, answer
// empty inputs, and pick
// the evaluation order that options::precision asks of the reducer (with_order). A backend
// then implements one template,
//     template <precision P, class R>
//     typename R::result_type reduce_source(source_t<R> src, std::size_t n, const R& r, const options& opts);
// for n >= 1: P == precision::fast is the backend's own order; deterministic and
// compensated (instantiated only for the floating-point sums, fixed_order::takes_fixed_order_v)
// are the fixed order of fixed_order/order.hpp. PREDUCE_BACKEND_ENTRY_POINTS, expanded in
// the backend's namespace, builds the public reduce() overloads and reduce_with() (what
// the compiled front end calls) on top of it.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/detail/algorithm/segment_layout.hpp"
#include "preduce/detail/routing/resolve.hpp"
#include "preduce/detail/core/type_name.hpp"
#include "preduce/errors.hpp"
#include "preduce/options.hpp"
#include "preduce/precision.hpp"
#include "preduce/source.hpp"

namespace preduce::detail {

template <class V, class Op, class Run>
auto run_op(const Op& op, Run&& run) {
    const auto r = resolve_reducer<V>(op);
    using R = std::remove_cvref_t<decltype(r)>;
    static_assert(std::is_same_v<typename R::value_type, V>,
                  "preduce: the operation's value_type differs from the element type of the data");
    return project(op, run(r));
}

// More threads than this is a mistake, not a tuning choice (no machine has that many
// hardware threads), and libgomp does not fail politely: asked for 100000 threads it
// crashes with SIGSEGV, and for INT_MAX it exits the process from inside the runtime.
inline constexpr int max_threads = 4096;

// Options are checked whatever the backend, so a bad value is caught before it reaches the
// one backend that would act on it.
inline void check_options(const options& opts) {
    if (opts.threads < 0 || opts.threads > max_threads)
        throw invalid_argument("preduce::reduce: options::threads = " + std::to_string(opts.threads) +
                               "; use 0 (the backend's default) or a count from 1 to " + std::to_string(max_threads));
    if (opts.gpus < 0)
        throw invalid_argument("preduce::reduce: options::gpus = " + std::to_string(opts.gpus) +
                               "; use 0 (every visible GPU) or a count of GPUs >= 1");
    switch (opts.precision) {
    case precision::fast:
    case precision::deterministic:
    case precision::compensated: return;
    }
    throw invalid_argument("preduce::reduce: options::precision = " + std::to_string(static_cast<int>(opts.precision)) +
                           " is not a preduce::precision; use fast, deterministic or compensated");
}

// The caller's arrays, checked before any work: null data with n > 0, a pointer not
// aligned for its element type, and byte counts past the address space are refused.
inline void check_input(const void* data, std::size_t n, std::size_t element_size, std::size_t alignment) {
    if (n == 0) return;
    if (data == nullptr)
        throw invalid_argument("preduce::reduce: data is null but n = " + std::to_string(n) +
                               "; pass a valid pointer, or n = 0 for an empty input");
    if (reinterpret_cast<std::uintptr_t>(data) % alignment != 0)
        throw invalid_argument("preduce::reduce: data pointer is not aligned to its element type (" +
                               std::to_string(alignment) + " bytes)");
    if (n > std::numeric_limits<std::size_t>::max() / element_size)
        throw invalid_argument("preduce::reduce: n = " + std::to_string(n) + " elements exceeds the address space");
}

template <class T>
void check_array(const T* data, std::size_t n) {
    check_input(data, n, sizeof(T), alignof(T));
}

template <class S>
void check_source(const S& src, std::size_t n) {
    if constexpr (is_zip_source_v<S>) {
        check_array(src.first, n);
        check_array(src.second, n);
    } else {
        check_array(src, n);
    }
}

template <precision P>
using order_t = std::integral_constant<precision, P>;

// Calls run(order_t<P>{}) with the order options.precision asks of R: the fixed order for
// floating-point sums under deterministic/compensated, the backend's own (fast) order for
// everything else. Operations that cannot honour a non-fast setting refuse it here
// (fixed_order::check_precision), exact ones ignore it.
template <class R, class Run>
auto with_order(const options& opts, Run&& run) {
    check_options(opts);
    if constexpr (fixed_order::takes_fixed_order_v<R>) {
        if (opts.precision == precision::deterministic) return run(order_t<precision::deterministic>{});
        if (opts.precision == precision::compensated) return run(order_t<precision::compensated>{});
    } else {
        fixed_order::check_precision<R>(opts.precision);
    }
    return run(order_t<precision::fast>{});
}

// The reducer of Op over segments, for a backend's header-only segmented entry points: ops
// that reshape their result on the host (mean, variance, minmax) are for the front end,
// which can tell where the output lives.
template <class V, class Op, class Run>
void run_segments_op(const Op& op, Run&& run) {
    const auto r = resolve_reducer<V>(op);
    using R = std::remove_cvref_t<decltype(r)>;
    static_assert(std::is_same_v<typename R::value_type, V>,
                  "preduce: the operation's value_type differs from the element type of the data");
    static_assert(!requires { typename Op::reshapes_result; },
                  "preduce: the header-only segmented entry points write the reducer's own result; for mean, variance "
                  "and minmax per segment use preduce::reduce_segments (the front end), or moments / fused(min, max)");
    run(r);
}

// What a segmented call checks before any work, whatever the backend: the data's pointers
// and an output for every segment. (The offsets are checked by check_offsets where the
// host can read them, or by the backend that reads them in device memory.)
template <class S>
void check_segments(const S& src, std::size_t n, const segment_layout& layout, const void* out) {
    check_source(src, n);
    check_output(out, layout.count, layout.count, "preduce::reduce_segments");
}

} // namespace preduce::detail

// The entry points every backend offers around its reduce_source<P>(src, n, reducer, opts),
// expanded inside the backend's namespace (the same set for every backend):
//   reduce_with(src, n, reducer, opts)  a reducer over a source: options, arrays, empty input, order
//   reduce(data, n, op[, options])      one input
//   reduce(x, y, n, op[, options])      two inputs read side by side (zip_source)
//   reduce_segments_with(src, n, layout, reducer, out, opts)   one result per segment (algorithm/segment_layout.hpp)
//   reduce_segments(data, n, offsets, m, op, out[, options]) / (x, y, n, offsets, m, ...)
//   reduce_batches(data, n, k, op, out[, options]) / (x, y, n, k, ...)
// A backend implements reduce_segments_source<P>(src, n, layout, reducer, out, opts) for
// layout.count >= 1 beside reduce_source<P>.
// The empty input is the identity, finished, in every order (the fixed order's empty tree
// is the identity too), and reads nothing; the options are checked all the same, including
// those only the backend can judge on this machine (info::check_options, backend_table.hpp).
#define PREDUCE_BACKEND_ENTRY_POINTS                                                                  \
    template <class R>                                                                                \
    typename R::result_type reduce_with(::preduce::source_t<R> src, std::size_t n, const R& reducer,  \
                                        const ::preduce::options& opts) {                             \
        info::check_options(opts);                                                                    \
        return ::preduce::detail::with_order<R>(opts, [&](auto order) -> typename R::result_type {     \
            ::preduce::detail::check_source(src, n);                                                  \
            if (n == 0) return reducer.finish(R::identity());                                         \
            return reduce_source<decltype(order)::value>(src, n, reducer, opts);                      \
        });                                                                                           \
    }                                                                                                 \
    template <class T, class Op>                                                                      \
    auto reduce(const T* data, std::size_t n, const Op& op, const ::preduce::options& opts = {}) {    \
        return ::preduce::detail::run_op<T>(op, [&](const auto& r) { return reduce_with(data, n, r, opts); }); \
    }                                                                                                 \
    template <class A, class B, class Op>                                                             \
    auto reduce(const A* x, const B* y, std::size_t n, const Op& op, const ::preduce::options& opts = {}) { \
        return ::preduce::detail::run_op<::preduce::zip_value<A, B>>(op, [&](const auto& r) {          \
            return reduce_with(::preduce::zip_source<A, B>{x, y}, n, r, opts);                        \
        });                                                                                           \
    }                                                                                                 \
    template <class R>                                                                                \
    void reduce_segments_with(::preduce::source_t<R> src, std::size_t n,                              \
                              const ::preduce::detail::segment_layout& layout, const R& reducer,      \
                              typename R::result_type* out, const ::preduce::options& opts) {         \
        info::check_options(opts);                                                                    \
        ::preduce::detail::with_order<R>(opts, [&](auto order) {                                      \
            ::preduce::detail::check_segments(src, n, layout, out);                                   \
            /* offsets a backend may find in device memory are that backend's to check */            \
            if constexpr (!info::reads_device_memory)                                                 \
                if (layout.form == ::preduce::detail::segment_form::offsets)                          \
                    ::preduce::detail::check_offsets(layout.offsets, layout.count, n);                \
            if (layout.count != 0) reduce_segments_source<decltype(order)::value>(src, n, layout, reducer, out, opts); \
        });                                                                                           \
    }                                                                                                 \
    template <class T, class Op, class Out>                                                           \
    void reduce_segments(const T* data, std::size_t n, const std::uint64_t* offsets, std::size_t m,   \
                         const Op& op, Out* out, const ::preduce::options& opts = {}) {               \
        ::preduce::detail::run_segments_op<T>(op, [&](const auto& r) {                                \
            reduce_segments_with(data, n, ::preduce::detail::offsets_form(offsets, m), r, out, opts);  \
        });                                                                                           \
    }                                                                                                 \
    template <class A, class B, class Op, class Out>                                                  \
    void reduce_segments(const A* x, const B* y, std::size_t n, const std::uint64_t* offsets,         \
                         std::size_t m, const Op& op, Out* out, const ::preduce::options& opts = {}) { \
        ::preduce::detail::run_segments_op<::preduce::zip_value<A, B>>(op, [&](const auto& r) {        \
            reduce_segments_with(::preduce::zip_source<A, B>{x, y}, n,                               \
                                 ::preduce::detail::offsets_form(offsets, m), r, out, opts);          \
        });                                                                                           \
    }                                                                                                 \
    template <class T, class Op, class Out>                                                           \
    void reduce_batches(const T* data, std::size_t n, std::size_t k, const Op& op, Out* out,          \
                        const ::preduce::options& opts = {}) {                                        \
        ::preduce::detail::run_segments_op<T>(op, [&](const auto& r) {                                \
            reduce_segments_with(data, n, ::preduce::detail::batches_form(n, k), r, out, opts);        \
        });                                                                                           \
    }                                                                                                 \
    template <class A, class B, class Op, class Out>                                                  \
    void reduce_batches(const A* x, const B* y, std::size_t n, std::size_t k, const Op& op, Out* out, \
                        const ::preduce::options& opts = {}) {                                        \
        ::preduce::detail::run_segments_op<::preduce::zip_value<A, B>>(op, [&](const auto& r) {        \
            reduce_segments_with(::preduce::zip_source<A, B>{x, y}, n, ::preduce::detail::batches_form(n, k), r, \
                                 out, opts);                                                          \
        });                                                                                           \
    }
