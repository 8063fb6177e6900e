#pragma once
// The compiled entry points of the front end: one overload per built-in reducer, for one
// result (route) and one result per segment (route_segments), defined in
// src/frontend/route.cpp, which hands the call to the chosen backend library.
#include <cstddef>

#include "preduce/backend.hpp"
#include "preduce/detail/builtins.hpp"
#include "preduce/detail/segments.hpp"
#include "preduce/options.hpp"

namespace preduce::detail {

#define PREDUCE_DECLARE_ROUTE(R)                                                                   \
    typename R::result_type route(backend b, ::preduce::source_t<R> data, std::size_t n,           \
                                     const R& reducer, const options& opts);                          \
    void route_segments(backend b, ::preduce::source_t<R> data, std::size_t n, const segment_layout& layout, \
                        const R& reducer, typename R::result_type* out, const options& opts);
PREDUCE_FOR_EACH_BUILTIN_REDUCER(PREDUCE_DECLARE_ROUTE)
#undef PREDUCE_DECLARE_ROUTE

} // namespace preduce::detail
