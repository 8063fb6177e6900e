#pragma once
// The built-in reducers as compiled into libpreduce_kokkos. Callers need no Kokkos headers.
#include "preduce/detail/backend_contract/builtins.hpp"
#include "preduce/options.hpp"

namespace preduce::kokkos::compiled {
PREDUCE_FOR_EACH_BUILTIN_REDUCER(PREDUCE_DECLARE_COMPILED_RUN)
}
