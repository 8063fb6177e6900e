// The built-ins of the narrow element types (8/16-bit integers, float16, bfloat16).
#include "preduce/openmp/compiled.hpp"

#include "preduce/openmp/reduce.hpp"

#define PREDUCE_BACKEND_NS ::preduce::openmp
namespace preduce::openmp::compiled {
PREDUCE_FOR_EACH_NARROW_BUILTIN_REDUCER(PREDUCE_DEFINE_COMPILED_RUN)
}
