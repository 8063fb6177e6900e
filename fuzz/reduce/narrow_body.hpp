#pragma once
// The fuzz body's cases of the narrow element types (int8, uint8, int16, uint16, float16,
// bfloat16), in their own translation unit (narrow_body.cpp) so that the body's templates
// compile in two halves.
#include "fuzz_case.hpp"

namespace preduce_fuzz {

void check_narrow_case(const fuzz_case& c);

} // namespace preduce_fuzz
