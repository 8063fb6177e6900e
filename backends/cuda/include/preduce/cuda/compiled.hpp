#pragma once
// The built-in reducers as compiled into libpreduce_cuda.
#include "preduce/detail/backend_contract/builtins.hpp"
#include "preduce/options.hpp"

namespace preduce::cuda::compiled {
PREDUCE_FOR_EACH_BUILTIN_REDUCER(PREDUCE_DECLARE_COMPILED_RUN)
}
