// Must not compile: the compiled front end does not know user operations.
#include <vector>

#include "preduce/preduce.hpp"

struct max_op {
    using value_type = float;
    static float identity() { return -1e30f; }
    static float combine(float a, float b) { return a < b ? b : a; }
};

float use(const std::vector<float>& x) { return preduce::reduce(preduce::backend::seq, x, max_op{}); }
