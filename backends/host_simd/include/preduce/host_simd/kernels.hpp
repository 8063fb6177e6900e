#pragma once
// The host kernels that seq, openmp and kokkos (on host execution spaces) share, as one
// class per reducer: kernels<R>. The backends only say how work spreads over their threads;
// the folds themselves (SIMD lanes, the fixed order's block values, the segment tasks) are
// these. The members are defined out of line, so that a translation unit may declare
// kernels<R> `extern template` (compiled_kernels.hpp): the built-in reducers' kernels are
// then compiled once, into preduce_host_kernels, and every host backend calls that one copy.
// Operations of a caller's own are instantiated where the header-only templates use them.
//
//   kernels<R>::fold(r, src, begin, end, avx2)          the fast order of src[begin, end)
//   kernels<R>::block_values_<order>(r, src, n, b0, b1, out, avx2)
//                                                       fixed-order block values b0 .. b1 - 1
//   kernels<R>::segments_<order>(r, src, layout, out, exec)   one result per segment
// <order>: fast, deterministic, compensated; the fixed-order members run only for reducers
// that take the fixed order (fixed_order::takes_fixed_order_v), as entry.hpp's with_order routes them.
// A reducer whose results have another reducer's bits (detail/backend_contract/same_bits.hpp) forwards every
// member to that reducer's kernels.
#include <cstddef>
#include <exception>
#include <vector>

#include "preduce/host_simd/namespaces.hpp"
#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/detail/backend_contract/same_bits.hpp"
#include "preduce/detail/algorithm/segment_layout.hpp"
#include "preduce/host_simd/fixed_order_blocks.hpp"
#include "preduce/host_simd/lane_fold.hpp"
#include "preduce/host_simd/segmented_folds.hpp"
#include "preduce/precision.hpp"
#include "preduce/source.hpp"

namespace preduce::host_simd {

// A callable f(std::size_t) by reference, without its type: what an executor runs.
class task_ref {
public:
    template <class F>
    task_ref(F& f) noexcept  // NOLINT(google-explicit-constructor): made where a task is passed
        : object_(&f), call_([](void* o, std::size_t t) { (*static_cast<F*>(o))(t); }) {}
    void operator()(std::size_t t) const { call_(object_, t); }

private:
    void* object_;
    void (*call_)(void*, std::size_t);
};

// How a host backend runs tasks: run(self, count, task) calls task(t) for every t in
// [0, count), on one thread or many, and returns when all are done. threads: how many
// run at once at most (the segment plans cut work for that many).
struct executor {
    std::size_t threads;
    const void* self;
    void (*run)(const void* self, std::size_t count, task_ref task);

    template <class F>
    void operator()(std::size_t count, F&& f) const {
        run(self, count, task_ref(f));
    }
};

template <class R>
struct kernels {
    using A = typename R::accumulator_type;
    using result_type = typename R::result_type;
    template <precision P>
    using value = ::preduce::detail::fixed_order::value_t<P, A>;

    static A fold(const R& r, source_t<R> src, std::size_t begin, std::size_t end, bool avx2);

    static void block_values_deterministic(const R& r, source_t<R> src, std::size_t n, std::size_t b0, std::size_t b1,
                                           value<precision::deterministic>* out, bool avx2);
    static void block_values_compensated(const R& r, source_t<R> src, std::size_t n, std::size_t b0, std::size_t b1,
                                         value<precision::compensated>* out, bool avx2);

    static void segments_fast(const R& r, source_t<R> src, const ::preduce::detail::segment_layout& layout,
                              result_type* out, const executor& exec);
    static void segments_deterministic(const R& r, source_t<R> src, const ::preduce::detail::segment_layout& layout,
                                       result_type* out, const executor& exec);
    static void segments_compensated(const R& r, source_t<R> src, const ::preduce::detail::segment_layout& layout,
                                     result_type* out, const executor& exec);
};

// The members for order P, by the order's value.
template <precision P, class R>
void block_values(const R& r, source_t<R> src, std::size_t n, std::size_t b0, std::size_t b1,
                  ::preduce::detail::fixed_order::value_t<P, typename R::accumulator_type>* out, bool avx2) {
    static_assert(P != precision::fast, "block values are the fixed order's");
    if constexpr (P == precision::deterministic) kernels<R>::block_values_deterministic(r, src, n, b0, b1, out, avx2);
    else kernels<R>::block_values_compensated(r, src, n, b0, b1, out, avx2);
}

template <precision P, class R>
void segments(const R& r, source_t<R> src, const ::preduce::detail::segment_layout& layout,
              typename R::result_type* out, const executor& exec) {
    if constexpr (P == precision::fast) kernels<R>::segments_fast(r, src, layout, out, exec);
    else if constexpr (P == precision::deterministic) kernels<R>::segments_deterministic(r, src, layout, out, exec);
    else kernels<R>::segments_compensated(r, src, layout, out, exec);
}

// The whole fixed order P on the calling thread.
template <precision P, class R>
typename R::result_type reduce_fixed(const R& r, source_t<R> src, std::size_t n) {
    namespace fixed_order = ::preduce::detail::fixed_order;
    std::vector<fixed_order::value_t<P, typename R::accumulator_type>> v(fixed_order::block_count(n));
    block_values<P>(r, src, n, 0, v.size(), v.data(), ::preduce::host_simd::use_avx2());
    return fixed_order::finish_blocks<P>(r, v);
}

// ---- definitions ----------------------------------------------------------------------------------

template <class R>
inline constexpr bool computed_elsewhere = ::preduce::detail::computed_elsewhere_v<R>;
template <class R>
using computing = ::preduce::detail::computed_as_t<R>;

template <class R>
typename kernels<R>::A kernels<R>::fold(const R& r, source_t<R> src, std::size_t begin, std::size_t end, bool avx2) {
    if constexpr (computed_elsewhere<R>)
        return kernels<computing<R>>::fold({}, ::preduce::detail::computing_source<R>(src), begin, end, avx2);
    else return ::preduce::host_simd::host_fold(r, src, begin, end, avx2);
}

// The fixed-order members of a reducer outside the fixed order are never called (with_order
// does not route it there); their bodies compile to a stop.
template <class R>
void kernels<R>::block_values_deterministic(const R& r, source_t<R> src, std::size_t n, std::size_t b0, std::size_t b1,
                                            value<precision::deterministic>* out, bool avx2) {
    if constexpr (computed_elsewhere<R>)
        kernels<computing<R>>::block_values_deterministic({}, ::preduce::detail::computing_source<R>(src), n, b0, b1, out, avx2);
    else if constexpr (::preduce::detail::fixed_order::takes_fixed_order_v<R>)
        ::preduce::host_simd::fixed_order::host_block_values<precision::deterministic>(r, src, n, b0, b1, out, avx2);
    else std::terminate();
}

template <class R>
void kernels<R>::block_values_compensated(const R& r, source_t<R> src, std::size_t n, std::size_t b0, std::size_t b1,
                                          value<precision::compensated>* out, bool avx2) {
    if constexpr (computed_elsewhere<R>)
        kernels<computing<R>>::block_values_compensated({}, ::preduce::detail::computing_source<R>(src), n, b0, b1, out, avx2);
    else if constexpr (::preduce::detail::fixed_order::takes_fixed_order_v<R>)
        ::preduce::host_simd::fixed_order::host_block_values<precision::compensated>(r, src, n, b0, b1, out, avx2);
    else std::terminate();
}

template <class R>
void kernels<R>::segments_fast(const R& r, source_t<R> src, const ::preduce::detail::segment_layout& layout,
                               result_type* out, const executor& exec) {
    if constexpr (computed_elsewhere<R>)
        kernels<computing<R>>::segments_fast({}, ::preduce::detail::computing_source<R>(src), layout,
                                             ::preduce::detail::computing_output<R>(out), exec);
    else ::preduce::host_simd::segmented::reduce<precision::fast>(r, src, layout, out, exec.threads, exec);
}

template <class R>
void kernels<R>::segments_deterministic(const R& r, source_t<R> src, const ::preduce::detail::segment_layout& layout,
                                        result_type* out, const executor& exec) {
    if constexpr (computed_elsewhere<R>)
        kernels<computing<R>>::segments_deterministic({}, ::preduce::detail::computing_source<R>(src), layout,
                                                  ::preduce::detail::computing_output<R>(out), exec);
    else if constexpr (::preduce::detail::fixed_order::takes_fixed_order_v<R>)
        ::preduce::host_simd::segmented::reduce<precision::deterministic>(r, src, layout, out, exec.threads, exec);
    else std::terminate();
}

template <class R>
void kernels<R>::segments_compensated(const R& r, source_t<R> src, const ::preduce::detail::segment_layout& layout,
                                      result_type* out, const executor& exec) {
    if constexpr (computed_elsewhere<R>)
        kernels<computing<R>>::segments_compensated({}, ::preduce::detail::computing_source<R>(src), layout,
                                                  ::preduce::detail::computing_output<R>(out), exec);
    else if constexpr (::preduce::detail::fixed_order::takes_fixed_order_v<R>)
        ::preduce::host_simd::segmented::reduce<precision::compensated>(r, src, layout, out, exec.threads, exec);
    else std::terminate();
}

} // namespace preduce::host_simd
