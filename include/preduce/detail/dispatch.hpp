#pragma once
// The compiled entry point of the front end: one overload per built-in reducer,
// defined in src/dispatch.cpp, which hands the call to the chosen backend library.
#include <cstddef>

#include "preduce/backend.hpp"
#include "preduce/detail/builtins.hpp"
#include "preduce/options.hpp"

namespace preduce::detail {

#define PREDUCE_DECLARE_DISPATCH(R)                                                                   \
    typename R::result_type dispatch(backend b, ::preduce::source_t<R> data, std::size_t n,           \
                                     const R& reducer, const options& opts);
PREDUCE_FOR_EACH_BUILTIN_REDUCER(PREDUCE_DECLARE_DISPATCH)
#undef PREDUCE_DECLARE_DISPATCH

// Shared argument checks, done once before any backend runs. element_size is also the
// alignment required: sizeof == alignof for every built-in element type.
void check_input(const void* data, std::size_t n, std::size_t element_size);

} // namespace preduce::detail
