// The built-ins of the 32/64-bit element types (compiled_narrow.cpp: the narrow ones).
#include "preduce/seq/compiled.hpp"

#include "preduce/seq/reduce.hpp"

#define PREDUCE_BACKEND_NS ::preduce::seq
namespace preduce::seq::compiled {
PREDUCE_FOR_EACH_WIDE_BUILTIN_REDUCER(PREDUCE_DEFINE_COMPILED_RUN)
}
