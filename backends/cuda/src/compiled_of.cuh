#pragma once
// One element type's share of the built-ins compiled into libpreduce_cuda: CMake generates a
// .cu per element type that includes this and expands PREDUCE_COMPILE_BUILTINS_OF(type)
// (cmake/PreduceElements.cmake), so that the build compiles the types side by side and a
// program linked statically carries only the types it calls.
#include "preduce/cuda/compiled.hpp"
#include "preduce/cuda/reduce.cuh"

#define PREDUCE_BACKEND_NS ::preduce::cuda
#define PREDUCE_COMPILE_BUILTINS_OF(T)                                                                \
    namespace preduce::cuda::compiled {                                                               \
    PREDUCE_BUILTIN_REDUCERS_OF(PREDUCE_DEFINE_COMPILED_RUN, T)                                       \
    }
