#pragma once
#include "preduce/backend.hpp"

namespace preduce::detail {
// Throws backend_unavailable naming the CMake option and the package that provide b.
[[noreturn]] void throw_not_built(backend b);
} // namespace preduce::detail
