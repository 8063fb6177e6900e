#pragma once
// The element types preduce knows, in two lists: the 32/64-bit types, and the narrow ones
// (8/16-bit integers, float16, bfloat16), which are read 1 or 2 bytes at a time and
// accumulate wider (README's semantics table). The compiled front end takes all of them, or
// the ones a build chose with PREDUCE_ELEMENTS (PREDUCE_FOR_EACH_BUILTIN_ELEMENT, config.hpp).
#include <cstdint>

#include "preduce/config.hpp"
#include "preduce/half.hpp"

#define PREDUCE_FOR_EACH_WIDE_ELEMENT(X) X(std::int32_t) X(std::uint32_t) X(std::int64_t) X(std::uint64_t) X(float) X(double)
#define PREDUCE_FOR_EACH_NARROW_ELEMENT(X)                                                            \
    X(std::int8_t) X(std::uint8_t) X(std::int16_t) X(std::uint16_t) X(::preduce::float16) X(::preduce::bfloat16)
#define PREDUCE_FOR_EACH_KNOWN_ELEMENT(X) PREDUCE_FOR_EACH_WIDE_ELEMENT(X) PREDUCE_FOR_EACH_NARROW_ELEMENT(X)
