#pragma once
// reduce(backend, ...) of the front end: from the backend value to that backend's compiled
// library. What is checked here is what only the front end knows: whether the backend is
// built, linked and usable here, and whether it can read the memory it is given. Options,
// input arrays, empty inputs and the evaluation order are the backends' shared entry
// (detail/backend_contract/entry.hpp). Expanded from the list of built backends: no backend is named here.
// CMake generates one source per element type that includes this and expands
// PREDUCE_COMPILE_BUILTINS_OF(type) (cmake/PreduceElements.cmake).
#include <new>
#include <type_traits>

#include "built_backends.hpp"
#include "preduce/automatic.hpp"
#include "preduce/config.hpp"
#include "preduce/detail/runtime/residence.hpp"
#include "preduce/detail/routing/route.hpp"
#include "preduce/operation_family.hpp"
#include "routing.hpp"
#include "weak_backends.hpp"

namespace preduce::detail {

template <class S>
void refuse_device_source(backend b, const S& data, std::size_t n) {
    if constexpr (is_zip_source_v<S>) {
        refuse_device_memory(b, data.first, n);
        refuse_device_memory(b, data.second, n);
    } else {
        refuse_device_memory(b, data, n);
    }
}

// backend::automatic resolved to a backend for this source and reducer R's family of
// operations (automatic.hpp, operation_family.hpp), and whether the data was found to be off
// the GPU on the way (a host backend then need not ask again); any other backend as it is.
template <class R, class S>
automatic_route resolve(backend b, const S& data, std::size_t n, const options& opts) {
    if (b != backend::automatic) return {b, false};
    constexpr operation_family family = family_of_reducer<R>;
    if constexpr (is_zip_source_v<S>) {
        using A = std::remove_cvref_t<decltype(*data.first)>;
        using B = std::remove_cvref_t<decltype(*data.second)>;
        const auto first = automatic_backend(data.first, n * (sizeof(A) + sizeof(B)), family, opts);
        return {first.chosen, false};  // the second array was not looked at
    } else {
        return automatic_backend(data, n * sizeof(*data), family, opts);
    }
}

// The linked backend's entry for R, checked usable: null addresses are backends this
// program does not link (weak_backends.hpp).
#define PREDUCE_LINKED_ENTRY(id, entry)                                                             \
    if (&::preduce::id::library == nullptr || (entry) == nullptr) throw_not_linked(b);              \
    require_usable(b, ::preduce::id::library)

template <class R>
typename R::result_type dispatch_to(backend b, source_t<R> data, std::size_t n, const R& reducer, const options& opts) {
    const auto resolved = resolve<R>(b, data, n, opts);
    b = resolved.chosen;
    // Host backends allocate workspace in proportion to n (the fixed order's block values);
    // running out of host memory is reported like running out of GPU memory.
    try {
        switch (b) {
#define PREDUCE_ROUTE_CASE(id)                                                                  \
    case backend::id: {                                                                         \
        const compiled_run_t<R> entry = &id::compiled::run;                                      \
        PREDUCE_LINKED_ENTRY(id, entry);                                                        \
        if constexpr (!id::info::reads_device_memory)                                           \
            if (!resolved.on_host) refuse_device_source(b, data, n);                            \
        return entry(data, n, reducer, opts);                                                   \
    }
            PREDUCE_FOR_EACH_BUILT_BACKEND(PREDUCE_ROUTE_CASE)
#undef PREDUCE_ROUTE_CASE
        default: break;
        }
    } catch (const std::bad_alloc&) {
        throw_host_out_of_memory("preduce::reduce", b, n, "elements", "free memory or reduce a smaller input");
    }
    throw_not_built(b);
}

template <class R>
void dispatch_segments_to(backend b, source_t<R> data, std::size_t n, const segment_layout& layout, const R& reducer,
                          typename R::result_type* out, const options& opts) {
    // Offsets or results in device memory: only cuda can reach them, whatever the data.
    if (b == backend::automatic &&
        ((layout.form == segment_form::offsets && locate(layout.offsets) == memory_kind::device) ||
         (layout.count != 0 && locate(out) == memory_kind::device)))
        b = backend::cuda;
    b = resolve<R>(b, data, n, opts).chosen;
    try {
        switch (b) {
#define PREDUCE_ROUTE_SEGMENTS_CASE(id)                                                         \
    case backend::id: {                                                                         \
        const compiled_segments_t<R> entry = &id::compiled::run_segments;                     \
        PREDUCE_LINKED_ENTRY(id, entry);                                                        \
        if constexpr (!id::info::reads_device_memory) {                                         \
            if (layout.form == segment_form::offsets)                                           \
                refuse_device_memory(b, layout.offsets, layout.count + 1, "offsets");           \
            refuse_device_memory(b, out, layout.count, "the output");                           \
            refuse_device_source(b, data, n);                                                   \
        }                                                                                       \
        entry(data, n, layout, reducer, out, opts);                                             \
        return;                                                                                 \
    }
            PREDUCE_FOR_EACH_BUILT_BACKEND(PREDUCE_ROUTE_SEGMENTS_CASE)
#undef PREDUCE_ROUTE_SEGMENTS_CASE
        default: break;
        }
    } catch (const std::bad_alloc&) {
        throw_host_out_of_memory("preduce::reduce_segments", b, layout.count, "segments",
                                 "free memory or reduce fewer segments");
    }
    throw_not_built(b);
}

#undef PREDUCE_LINKED_ENTRY

} // namespace preduce::detail

#define PREDUCE_DEFINE_DISPATCH(R)                                                                    \
    typename R::result_type preduce::detail::dispatch(backend b, source_t<R> data, std::size_t n, const R& reducer, \
                                                      const options& opts) {                          \
        return dispatch_to<R>(b, data, n, reducer, opts);                                             \
    }                                                                                                 \
    void preduce::detail::dispatch_segments(backend b, source_t<R> data, std::size_t n, const segment_layout& layout, \
                                            const R& reducer, typename R::result_type* out, const options& opts) { \
        dispatch_segments_to<R>(b, data, n, layout, reducer, out, opts);                              \
    }
#define PREDUCE_COMPILE_BUILTINS_OF(T) PREDUCE_BUILTIN_REDUCERS_OF(PREDUCE_DEFINE_DISPATCH, T)
