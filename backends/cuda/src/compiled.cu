#include "preduce/cuda/compiled.hpp"

#include "preduce/cuda/reduce.cuh"

#define PREDUCE_BACKEND_NS ::preduce::cuda
namespace preduce::cuda::compiled {
PREDUCE_FOR_EACH_BUILTIN_REDUCER(PREDUCE_DEFINE_COMPILED_RUN)
}
