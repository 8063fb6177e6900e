#pragma once
// One element type's share of the built-ins compiled into libpreduce_kokkos: CMake generates a
// source per element type that includes this and expands PREDUCE_COMPILE_BUILTINS_OF(type)
// (cmake/PreduceElements.cmake). The host kernels they call are compiled once, into
// preduce_host_kernels (compiled_kernels.hpp).
#include "preduce/host_simd/compiled_kernels.hpp"
#include "preduce/kokkos/compiled.hpp"
#include "preduce/kokkos/reduce.hpp"

#define PREDUCE_BACKEND_NS ::preduce::kokkos
#define PREDUCE_COMPILE_BUILTINS_OF(T)                                                                \
    namespace preduce::kokkos::compiled {                                                                  \
    PREDUCE_BUILTIN_REDUCERS_OF(PREDUCE_DEFINE_COMPILED_RUN, T)                                       \
    }
