#pragma once
// The (element type x operation) pairs compiled into the library: every element type
// (elements.hpp) with every built-in operation (operation_list.hpp). One list, expanded by
// the front end (declarations) and by every backend (definitions), so a pair can never
// exist in one place and be missing in another.
#include <cstdint>

#include "preduce/detail/elements.hpp"
#include "preduce/detail/operation_list.hpp"
#include "preduce/detail/same_bits.hpp"
#include "preduce/detail/segments.hpp"
#include "preduce/fused.hpp"
#include "preduce/reducers.hpp"
#include "preduce/source.hpp"
#include "preduce/transforms.hpp"

// X(reducer) for every built-in operation (operation_list.hpp) over element type T.
#define PREDUCE_BUILTIN_REDUCER_OF(name, X, T) X(::preduce::name##_reducer<T>)
#define PREDUCE_BUILTIN_REDUCERS_OF(X, T) PREDUCE_FOR_EACH_BUILTIN_OPERATION(PREDUCE_BUILTIN_REDUCER_OF, X, T)

// Per element type list (detail/elements.hpp): backends compile the wide and the narrow
// list in separate files, so that the build can compile them side by side.
#define PREDUCE_FOR_EACH_WIDE_BUILTIN_REDUCER(X)                                                      \
    PREDUCE_BUILTIN_REDUCERS_OF(X, std::int32_t)                                                      \
    PREDUCE_BUILTIN_REDUCERS_OF(X, std::uint32_t)                                                     \
    PREDUCE_BUILTIN_REDUCERS_OF(X, std::int64_t)                                                      \
    PREDUCE_BUILTIN_REDUCERS_OF(X, std::uint64_t)                                                     \
    PREDUCE_BUILTIN_REDUCERS_OF(X, float)                                                             \
    PREDUCE_BUILTIN_REDUCERS_OF(X, double)
#define PREDUCE_FOR_EACH_NARROW_BUILTIN_REDUCER(X)                                                    \
    PREDUCE_BUILTIN_REDUCERS_OF(X, std::int8_t)                                                       \
    PREDUCE_BUILTIN_REDUCERS_OF(X, std::uint8_t)                                                      \
    PREDUCE_BUILTIN_REDUCERS_OF(X, std::int16_t)                                                      \
    PREDUCE_BUILTIN_REDUCERS_OF(X, std::uint16_t)                                                     \
    PREDUCE_BUILTIN_REDUCERS_OF(X, ::preduce::float16)                                                \
    PREDUCE_BUILTIN_REDUCERS_OF(X, ::preduce::bfloat16)
#define PREDUCE_FOR_EACH_BUILTIN_REDUCER(X)                                                           \
    PREDUCE_FOR_EACH_WIDE_BUILTIN_REDUCER(X)                                                          \
    PREDUCE_FOR_EACH_NARROW_BUILTIN_REDUCER(X)

namespace preduce::detail {
// Whether reducer R is in the list above, i.e. callable through the compiled front end.
template <class R>
inline constexpr bool is_compiled_v = false;
#define PREDUCE_MARK_COMPILED(R) \
    template <>                  \
    inline constexpr bool is_compiled_v<R> = true;
PREDUCE_FOR_EACH_BUILTIN_REDUCER(PREDUCE_MARK_COMPILED)
#undef PREDUCE_MARK_COMPILED
} // namespace preduce::detail

// What every backend library exports once per built-in reducer, as an overload set in its
// own namespace (preduce::<backend>::compiled): one result, and one result per segment.
// PREFIX goes before each declaration (the front end declares them weak: detail/linking.hpp).
#define PREDUCE_COMPILED_RUN_DECLARATIONS(PREFIX, R)                                                  \
    PREFIX typename R::result_type run(::preduce::source_t<R> data, std::size_t n, const R& reducer,  \
                                       const ::preduce::options& opts);                               \
    PREFIX void run_segments(::preduce::source_t<R> data, std::size_t n,                              \
                             const ::preduce::detail::segment_layout& layout, const R& reducer,       \
                             typename R::result_type* out, const ::preduce::options& opts);
#define PREDUCE_DECLARE_COMPILED_RUN(R) PREDUCE_COMPILED_RUN_DECLARATIONS(, R)

namespace preduce::detail {
// A compiled built-in: compute(reducer, data, n) with the backend's entries, or, for a
// reducer whose results have another reducer's bits (same_bits.hpp), that reducer's
// compiled entry through forward(other, data, n): each distinct result is compiled once.
template <class R, class Compute, class Forward>
typename R::result_type compiled_run(const R& reducer, source_t<R> data, std::size_t n, Compute&& compute,
                                     Forward&& forward) {
    if constexpr (computed_elsewhere_v<R>) {
        using C = computed_as_t<R>;
        static_assert(std::is_same_v<typename C::accumulator_type, typename R::accumulator_type>);
        return computed_result<R>(forward(C{}, computing_source<R>(data), n));
    } else {
        return compute(reducer, data, n);
    }
}
template <class R, class Compute, class Forward>
void compiled_run_segments(const R& reducer, source_t<R> data, std::size_t n, typename R::result_type* out,
                           Compute&& compute, Forward&& forward) {
    if constexpr (computed_elsewhere_v<R>) forward(computed_as_t<R>{}, computing_source<R>(data), n, computing_output<R>(out));
    else compute(reducer, data, n, out);
}
} // namespace preduce::detail

// The matching definitions: they forward to PREDUCE_BACKEND_NS::reduce_with and
// reduce_segments_with, the backend's header-only entries (detail/entry.hpp: options, input
// checks, order), or to the compiled entry of the reducer that computes R's results. A
// backend's src/compiled_of.* defines PREDUCE_BACKEND_NS and expands
// PREDUCE_BUILTIN_REDUCERS_OF(PREDUCE_DEFINE_COMPILED_RUN, T).
#define PREDUCE_DEFINE_COMPILED_RUN(R)                                                                \
    typename R::result_type run(::preduce::source_t<R> data, std::size_t n, const R& reducer,         \
                                const ::preduce::options& opts) {                                     \
        return ::preduce::detail::compiled_run(                                                       \
            reducer, data, n,                                                                         \
            [&](const auto& r, auto src, std::size_t m) { return PREDUCE_BACKEND_NS::reduce_with(src, m, r, opts); }, \
            [&](const auto& r, auto src, std::size_t m) { return run(src, m, r, opts); });            \
    }                                                                                                 \
    void run_segments(::preduce::source_t<R> data, std::size_t n,                                     \
                      const ::preduce::detail::segment_layout& layout, const R& reducer,              \
                      typename R::result_type* out, const ::preduce::options& opts) {                 \
        ::preduce::detail::compiled_run_segments(                                                     \
            reducer, data, n, out,                                                                    \
            [&](const auto& r, auto src, std::size_t m, auto* o) {                                    \
                PREDUCE_BACKEND_NS::reduce_segments_with(src, m, layout, r, o, opts);                 \
            },                                                                                        \
            [&](const auto& r, auto src, std::size_t m, auto* o) { run_segments(src, m, layout, r, o, opts); }); \
    }
