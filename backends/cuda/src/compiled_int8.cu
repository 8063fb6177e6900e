#include "compiled_of.cuh"

PREDUCE_CUDA_COMPILE_BUILTINS_OF(std::int8_t)
