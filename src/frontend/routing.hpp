#pragma once
// What route_of.hpp's templates share, compiled once (route.cpp): the checks only the front
// end can make, whether the backend is built, linked and usable here, and whether it can
// read the memory it is given.
#include <cstddef>
#include <string>

#include "preduce/backend.hpp"
#include "preduce/detail/routing/backend_library.hpp"

namespace preduce::detail {

// Throws backend_unavailable naming what to rebuild or link; invalid_argument for a value
// that is not a preduce::backend.
[[noreturn]] void throw_not_built(backend b);
[[noreturn]] void throw_not_linked(backend b);

// Throws backend_unavailable when the backend's library says it cannot run here.
void require_usable(backend b, const backend_library& library);

// Throws invalid_argument when p[0, n) is GPU device memory, which backend b cannot reach.
void refuse_device_memory(backend b, const void* p, std::size_t n, const char* what = "data");

// Throws out_of_memory for a host allocation that failed in backend b's call.
[[noreturn]] void throw_host_out_of_memory(const char* call, backend b, std::size_t count, const char* what,
                                           const char* advice);

} // namespace preduce::detail
