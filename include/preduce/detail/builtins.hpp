#pragma once
// The (element type x operation) pairs compiled into the library. One list, expanded
// by the front end (declarations) and by every backend (definitions), so a pair can
// never exist in one place and be missing in another.
#include <cstdint>

#include "preduce/reducers.hpp"

#define PREDUCE_BUILTIN_REDUCERS_OF(X, T)                                                             \
    X(::preduce::sum_reducer<T>)                                                                      \
    X(::preduce::wide_sum_reducer<T>)                                                                 \
    X(::preduce::prod_reducer<T>)                                                                     \
    X(::preduce::min_reducer<T>)                                                                      \
    X(::preduce::max_reducer<T>)                                                                      \
    X(::preduce::argmin_reducer<T>)                                                                   \
    X(::preduce::argmax_reducer<T>)                                                                   \
    X(::preduce::count_reducer<T>)

#define PREDUCE_FOR_EACH_BUILTIN_REDUCER(X)                                                           \
    PREDUCE_BUILTIN_REDUCERS_OF(X, std::int32_t)                                                      \
    PREDUCE_BUILTIN_REDUCERS_OF(X, std::uint32_t)                                                     \
    PREDUCE_BUILTIN_REDUCERS_OF(X, std::int64_t)                                                      \
    PREDUCE_BUILTIN_REDUCERS_OF(X, std::uint64_t)                                                     \
    PREDUCE_BUILTIN_REDUCERS_OF(X, float)                                                             \
    PREDUCE_BUILTIN_REDUCERS_OF(X, double)

// The signature every backend library exports once per built-in reducer, as an
// overload set in its own namespace (preduce::<backend>::compiled).
#define PREDUCE_DECLARE_COMPILED_RUN(R)                                                               \
    typename R::result_type run(const typename R::value_type* data, std::size_t n, const R& reducer,  \
                                const ::preduce::options& opts);

// The matching definition: forwards to PREDUCE_BACKEND_NS::reduce, the backend's
// header-only template. A backend's compiled.cpp defines PREDUCE_BACKEND_NS and expands
// PREDUCE_FOR_EACH_BUILTIN_REDUCER(PREDUCE_DEFINE_COMPILED_RUN).
#define PREDUCE_DEFINE_COMPILED_RUN(R)                                                                \
    typename R::result_type run(const typename R::value_type* data, std::size_t n, const R& reducer,  \
                                const ::preduce::options& opts) {                                     \
        return PREDUCE_BACKEND_NS::reduce(data, n, reducer, opts);                                    \
    }
