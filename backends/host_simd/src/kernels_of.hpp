#pragma once
// One element type's share of preduce_host_kernels: CMake generates a source per element type
// that includes this and expands PREDUCE_COMPILE_BUILTINS_OF(type) (cmake/PreduceElements.cmake):
// the explicit instantiations of kernels<R> for the built-in reducers of that type.
#include "preduce/host_simd/compiled_kernels.hpp"

#define PREDUCE_INSTANTIATE_HOST_KERNELS(R) template struct ::preduce::host_simd::kernels<R>;
#define PREDUCE_COMPILE_BUILTINS_OF(T) PREDUCE_BUILTIN_REDUCERS_OF(PREDUCE_INSTANTIATE_HOST_KERNELS, T)
