#pragma once
// Which backends a program carries. Each backend's CMake target (preduce::<name>, and
// preduce::preduce for all of them) defines PREDUCE_LINKS_<name>=1 in the code that links
// it; every translation unit that includes the front end then keeps the library object of
// each of those backends (linked_libraries.hpp, generated), and every call of the front end
// the compiled entries of its reducer (keep_linked<R>). The front end
// itself refers to the backends only weakly (src/frontend/weak_backends.hpp), so that:
//  - linked statically, a program carries the (backend, element type) pairs it calls and no
//    backend it does not link: the archives contribute only what is kept;
//  - linked to the shared libraries, it loads the backends it links.
// A backend that is built into the installation but not linked into the program is
// reported by is_usable() and describe(), and refused by reduce() (backend_unavailable).
#include <cstddef>

#include "preduce/backend.hpp"
#include "preduce/config.hpp"
#include "preduce/detail/routing/backend_library.hpp"
#include "preduce/detail/backend_contract/builtins.hpp"
#include "preduce/detail/routing/route.hpp"
#include "preduce/detail/algorithm/segment_layout.hpp"
#include "preduce/options.hpp"

#define PREDUCE_DECLARE_LINKABLE_BACKEND(id)                                                          \
    namespace preduce::id {                                                                           \
    extern const ::preduce::detail::backend_library library;                                          \
    namespace compiled {                                                                              \
    PREDUCE_FOR_EACH_BUILTIN_REDUCER(PREDUCE_DECLARE_COMPILED_RUN)                                    \
    }                                                                                                 \
    }
PREDUCE_FOR_EACH_BUILT_BACKEND(PREDUCE_DECLARE_LINKABLE_BACKEND)
#undef PREDUCE_DECLARE_LINKABLE_BACKEND

namespace preduce::detail {

// References that the compiler keeps ([[gnu::used]]) and the linker must resolve: each
// linked backend's entries for R, and its library object.
template <class R>
void keep_linked() noexcept {
#define PREDUCE_KEEP_LINKED(id)                                                                       \
    if constexpr (PREDUCE_LINKS_##id != 0) {                                                          \
        [[gnu::used]] static constexpr compiled_run_t<R> run = &::preduce::id::compiled::run;         \
        [[gnu::used]] static constexpr compiled_segments_t<R> segments = &::preduce::id::compiled::run_segments; \
        [[gnu::used]] static constexpr const backend_library* library = &::preduce::id::library;      \
    }
    PREDUCE_FOR_EACH_BUILT_BACKEND(PREDUCE_KEEP_LINKED)
#undef PREDUCE_KEEP_LINKED
}

// The front end's calls: reducer R to backend b (src/frontend/route_of.hpp), keeping R's
// entries of the backends this program links.
template <class R>
typename R::result_type route(backend b, source_t<R> data, std::size_t n, const R& reducer, const options& opts) {
    keep_linked<R>();
    return dispatch(b, data, n, reducer, opts);
}

template <class R>
void route_segments(backend b, source_t<R> data, std::size_t n, const segment_layout& layout, const R& reducer,
                    typename R::result_type* out, const options& opts) {
    keep_linked<R>();
    dispatch_segments(b, data, n, layout, reducer, out, opts);
}

} // namespace preduce::detail
