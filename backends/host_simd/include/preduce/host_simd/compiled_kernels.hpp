#pragma once
// The built-in reducers' host kernels are compiled once, into preduce_host_kernels
// (src/kernels_of.hpp): a translation unit that includes this calls that copy instead of
// instantiating its own. The host backends' compiled built-ins include it; header-only
// callers, who compile the templates with their own flags, do not need to.
#include "preduce/detail/backend_contract/builtins.hpp"
#include "preduce/host_simd/kernels.hpp"

#define PREDUCE_EXTERN_HOST_KERNELS(R) extern template struct ::preduce::host_simd::kernels<R>;
PREDUCE_FOR_EACH_BUILTIN_REDUCER(PREDUCE_EXTERN_HOST_KERNELS)
#undef PREDUCE_EXTERN_HOST_KERNELS
