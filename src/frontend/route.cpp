// reduce(backend, ...) of the front end: from the backend value to that backend's compiled
// library. What is checked here is what only the front end knows: whether the backend is
// built and usable here, and whether it can read the memory it is given. Options, input
// arrays, empty inputs and the evaluation order are the backends' shared entry
// (detail/entry.hpp). Expanded from the list of built backends: no backend is named here.
#include "preduce/detail/route.hpp"

#include <algorithm>
#include <cctype>
#include <new>
#include <string>

#include "built_backends.hpp"
#include "preduce/automatic.hpp"
#include "preduce/operation_family.hpp"
#include "preduce/config.hpp"
#include "preduce/detail/residence.hpp"
#include "preduce/errors.hpp"

namespace preduce::detail {

namespace {

[[noreturn]] void throw_not_built(backend b) {
    if (std::find(all_backends.begin(), all_backends.end(), b) == all_backends.end())
        throw invalid_argument("backend value " + std::to_string(static_cast<int>(b)) + " is not a preduce::backend");
    const std::string n(name(b));
    std::string upper = n;
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    std::string needs;
    switch (b) {
#define PREDUCE_NEEDS_CASE(id, what) \
    case backend::id: needs = what; break;
        PREDUCE_FOR_EACH_BACKEND(PREDUCE_NEEDS_CASE)
#undef PREDUCE_NEEDS_CASE
    case backend::automatic: break;  // resolved before any backend is asked for
    }
    throw backend_unavailable("backend '" + n + "' is not built into this preduce; reconfigure with -DPREDUCE_ENABLE_" +
                              upper + "=ON, which needs " + needs);
}

void require_usable(backend b, bool usable, std::string (*reason)()) {
    if (!usable)
        throw backend_unavailable("backend '" + std::string(name(b)) + "' is built but cannot run here: " + reason() +
                                  "; pick another backend");
}

// A backend that cannot read GPU device memory would crash on it: refused here, before any
// work. One driver query per array (residence.hpp).
void refuse_device_memory(backend b, const void* p, std::size_t n, const char* what = "data") {
    if (n != 0 && locate(p) == memory_kind::device)
        throw invalid_argument(std::string("preduce::reduce: ") + what + " is GPU device memory, which the '" +
                               std::string(name(b)) + "' backend cannot reach; use backend::cuda or copy it to the host");
}

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
detail::automatic_route resolve(backend b, const S& data, std::size_t n, const options& opts) {
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

template <class R>
typename R::result_type route_to(backend b, source_t<R> data, std::size_t n, const R& reducer, const options& opts) {
    const auto resolved = resolve<R>(b, data, n, opts);
    b = resolved.chosen;
    // Host backends allocate workspace in proportion to n (the fixed order's block values);
    // running out of host memory is reported like running out of GPU memory.
    try {
        switch (b) {
#define PREDUCE_ROUTE_CASE(id)                                                                  \
    case backend::id:                                                                           \
        require_usable(b, id::info::usable(), &id::info::unusable_reason);                      \
        if constexpr (!id::info::reads_device_memory)                                           \
            if (!resolved.on_host) refuse_device_source(b, data, n);                            \
        return id::compiled::run(data, n, reducer, opts);
            PREDUCE_FOR_EACH_BUILT_BACKEND(PREDUCE_ROUTE_CASE)
#undef PREDUCE_ROUTE_CASE
        default: break;
        }
    } catch (const std::bad_alloc&) {
        throw out_of_memory("preduce::reduce(" + std::string(name(b)) + "): out of host memory for the workspace of " +
                            std::to_string(n) + " elements; free memory or reduce a smaller input");
    }
    throw_not_built(b);
}

template <class R>
void route_segments_to(backend b, source_t<R> data, std::size_t n, const segment_layout& layout, const R& reducer,
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
    case backend::id:                                                                           \
        require_usable(b, id::info::usable(), &id::info::unusable_reason);                      \
        if constexpr (!id::info::reads_device_memory) {                                         \
            if (layout.form == segment_form::offsets)                                           \
                refuse_device_memory(b, layout.offsets, layout.count + 1, "offsets");                      \
            refuse_device_memory(b, out, layout.count, "the output");                                         \
            refuse_device_source(b, data, n);                                                   \
        }                                                                                       \
        id::compiled::run_segments(data, n, layout, reducer, out, opts);                        \
        return;
            PREDUCE_FOR_EACH_BUILT_BACKEND(PREDUCE_ROUTE_SEGMENTS_CASE)
#undef PREDUCE_ROUTE_SEGMENTS_CASE
        default: break;
        }
    } catch (const std::bad_alloc&) {
        throw out_of_memory("preduce::reduce_segments(" + std::string(name(b)) + "): out of host memory for the workspace of " +
                            std::to_string(layout.count) + " segments; free memory or reduce fewer segments");
    }
    throw_not_built(b);
}

} // namespace

#define PREDUCE_DEFINE_ROUTE(R)                                                                    \
    typename R::result_type route(backend b, source_t<R> data, std::size_t n, const R& reducer,    \
                                     const options& opts) {                                           \
        return route_to<R>(b, data, n, reducer, opts);                                                   \
    }                                                                                                 \
    void route_segments(backend b, source_t<R> data, std::size_t n, const segment_layout& layout,      \
                        const R& reducer, typename R::result_type* out, const options& opts) {       \
        route_segments_to<R>(b, data, n, layout, reducer, out, opts);                                 \
    }
PREDUCE_FOR_EACH_BUILTIN_REDUCER(PREDUCE_DEFINE_ROUTE)

} // namespace preduce::detail
