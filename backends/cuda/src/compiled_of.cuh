#pragma once
// One element type's share of the built-ins compiled into libpreduce_cuda. Each type has
// its own .cu (compiled_<type>.cu) so that the build compiles them in parallel: the 14
// reducers of all the types in one file take longer to compile than all the rest of the
// build.
#include "preduce/cuda/compiled.hpp"
#include "preduce/cuda/reduce.cuh"

#define PREDUCE_BACKEND_NS ::preduce::cuda
#define PREDUCE_CUDA_COMPILE_BUILTINS_OF(T)                                                           \
    namespace preduce::cuda::compiled {                                                               \
    PREDUCE_BUILTIN_REDUCERS_OF(PREDUCE_DEFINE_COMPILED_RUN, T)                                       \
    }
