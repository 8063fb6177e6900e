#pragma once
// CUDA's 16-bit float types as preduce element types: an array of __half is reduced as
// preduce::float16 and an array of __nv_bfloat16 as preduce::bfloat16 (the same IEEE
// binary16 and bfloat16 bits), as CUB's users pass them:
//
//   #include <preduce/cuda_half.hpp>
//   const __half* d = ...;                                  // device memory
//   float s = preduce::reduce(preduce::backend::cuda, d, n, preduce::sum);
//
// Needs CUDA's headers on the include path; any C++ compiler can include them.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "preduce/half.hpp"
#include "preduce/reduce.hpp"

namespace preduce::detail {
template <>
struct element_alias<__half> {
    using type = float16;
};
template <>
struct element_alias<__nv_bfloat16> {
    using type = bfloat16;
};
} // namespace preduce::detail
