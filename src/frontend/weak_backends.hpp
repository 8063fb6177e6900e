#pragma once
// The front end's view of the backends: every built backend's library object and compiled
// built-ins, declared weak, so that the front end links without any of them and finds a
// null address where the program does not link a backend (detail/routing/linking.hpp says how a
// program links one). Only the front end's own sources include this.
#include "preduce/config.hpp"
#include "preduce/detail/routing/backend_library.hpp"
#include "preduce/detail/backend_contract/builtins.hpp"

#define PREDUCE_DECLARE_WEAK_RUN(R) PREDUCE_COMPILED_RUN_DECLARATIONS(__attribute__((weak)), R)
#define PREDUCE_DECLARE_WEAK_BACKEND(id)                                                              \
    namespace preduce::id {                                                                           \
    extern const ::preduce::detail::backend_library library __attribute__((weak));                    \
    namespace compiled {                                                                              \
    PREDUCE_FOR_EACH_BUILTIN_REDUCER(PREDUCE_DECLARE_WEAK_RUN)                                        \
    }                                                                                                 \
    }
PREDUCE_FOR_EACH_BUILT_BACKEND(PREDUCE_DECLARE_WEAK_BACKEND)
#undef PREDUCE_DECLARE_WEAK_BACKEND
#undef PREDUCE_DECLARE_WEAK_RUN

namespace preduce::detail {

// Backend b's library object in this program, or null: not built, or not linked.
const backend_library* linked_library(backend b) noexcept;

} // namespace preduce::detail
