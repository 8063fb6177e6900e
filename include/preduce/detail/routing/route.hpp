#pragma once
// The compiled entry points of the front end: one overload per built-in reducer, for one
// result (dispatch) and one result per segment (dispatch_segments), defined in
// src/frontend/route_of.hpp, which hands the call to the chosen backend's library. Callers
// go through route() and route_segments() (detail/routing/linking.hpp).
#include <cstddef>

#include "preduce/backend.hpp"
#include "preduce/detail/backend_contract/builtins.hpp"
#include "preduce/detail/algorithm/segment_layout.hpp"
#include "preduce/options.hpp"

namespace preduce::detail {

// A backend's compiled entries for reducer R (PREDUCE_DECLARE_COMPILED_RUN).
template <class R>
using compiled_run_t = typename R::result_type (*)(source_t<R>, std::size_t, const R&, const options&);
template <class R>
using compiled_segments_t = void (*)(source_t<R>, std::size_t, const segment_layout&, const R&,
                                     typename R::result_type*, const options&);

#define PREDUCE_DECLARE_DISPATCH(R)                                                                   \
    typename R::result_type dispatch(backend b, ::preduce::source_t<R> data, std::size_t n, const R& reducer,     \
                                     const options& opts);                                            \
    void dispatch_segments(backend b, ::preduce::source_t<R> data, std::size_t n, const segment_layout& layout,   \
                           const R& reducer, typename R::result_type* out, const options& opts);
PREDUCE_FOR_EACH_BUILTIN_REDUCER(PREDUCE_DECLARE_DISPATCH)
#undef PREDUCE_DECLARE_DISPATCH

} // namespace preduce::detail
