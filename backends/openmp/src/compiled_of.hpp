#pragma once
// One element type's share of the built-ins compiled into libpreduce_openmp: CMake generates a
// source per element type that includes this and expands PREDUCE_COMPILE_BUILTINS_OF(type)
// (cmake/PreduceElements.cmake). The host kernels they call are compiled once, into
// preduce_host_kernels (compiled_kernels.hpp).
#include "preduce/host_simd/compiled_kernels.hpp"
#include "preduce/openmp/compiled.hpp"
#include "preduce/openmp/reduce.hpp"

#define PREDUCE_BACKEND_NS ::preduce::openmp
#define PREDUCE_COMPILE_BUILTINS_OF(T)                                                                \
    namespace preduce::openmp::compiled {                                                                  \
    PREDUCE_BUILTIN_REDUCERS_OF(PREDUCE_DEFINE_COMPILED_RUN, T)                                       \
    }
