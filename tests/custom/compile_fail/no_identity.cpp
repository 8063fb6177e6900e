// Must not compile: a user operation without identity().
#include <cstddef>

#include "preduce/seq/reduce.hpp"

struct no_identity {
    using value_type = float;
    static float combine(float a, float b) { return a + b; }
};

float use(const float* x, std::size_t n) { return preduce::seq::reduce(x, n, no_identity{}); }
