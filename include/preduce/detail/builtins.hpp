#pragma once
// The (element type x operation) pairs compiled into the library. One list, expanded
// by the front end (declarations) and by every backend (definitions), so a pair can
// never exist in one place and be missing in another.
#include <cstdint>

#include "preduce/detail/elements.hpp"
#include "preduce/detail/segments.hpp"
#include "preduce/fused.hpp"
#include "preduce/reducers.hpp"
#include "preduce/source.hpp"
#include "preduce/transforms.hpp"

#define PREDUCE_BUILTIN_REDUCERS_OF(X, T)                                                             \
    X(::preduce::sum_reducer<T>)                                                                      \
    X(::preduce::wide_sum_reducer<T>)                                                                 \
    X(::preduce::prod_reducer<T>)                                                                     \
    X(::preduce::min_reducer<T>)                                                                      \
    X(::preduce::max_reducer<T>)                                                                      \
    X(::preduce::argmin_reducer<T>)                                                                   \
    X(::preduce::argmax_reducer<T>)                                                                   \
    X(::preduce::count_reducer<T>)                                                                    \
    X(::preduce::sumsq_reducer<T>)                                                                    \
    X(::preduce::asum_reducer<T>)                                                                     \
    X(::preduce::dot_reducer<T>)                                                                      \
    X(::preduce::moments_reducer<T>)                                                                  \
    X(::preduce::minmax_reducer<T>)                                                                   \
    X(::preduce::sum_count_reducer<T>)

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

// The matching definitions: they forward to PREDUCE_BACKEND_NS::reduce_with and
// reduce_segments_with, the backend's header-only entries (detail/entry.hpp: options, input
// checks, order). A backend's compiled.cpp defines PREDUCE_BACKEND_NS and expands
// PREDUCE_FOR_EACH_BUILTIN_REDUCER(PREDUCE_DEFINE_COMPILED_RUN).
#define PREDUCE_DEFINE_COMPILED_RUN(R)                                                                \
    typename R::result_type run(::preduce::source_t<R> data, std::size_t n, const R& reducer,         \
                                const ::preduce::options& opts) {                                     \
        return PREDUCE_BACKEND_NS::reduce_with(data, n, reducer, opts);                               \
    }                                                                                                 \
    void run_segments(::preduce::source_t<R> data, std::size_t n,                                     \
                      const ::preduce::detail::segment_layout& layout, const R& reducer,              \
                      typename R::result_type* out, const ::preduce::options& opts) {                 \
        PREDUCE_BACKEND_NS::reduce_segments_with(data, n, layout, reducer, out, opts);                \
    }
