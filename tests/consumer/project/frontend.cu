// A CUDA source of the user's that includes the front end and links preduce::preduce alone:
// the C++20 the headers need must reach nvcc through the target (cuda_std_20), without the
// project setting CMAKE_CUDA_STANDARD itself. Runs the seq backend, so no GPU is needed.
#include <preduce/preduce.hpp>

#include <cstdio>
#include <vector>

int main() {
    const std::vector<float> v(1000, 0.5f);
    const float s = preduce::reduce(preduce::backend::seq, v, preduce::sum);
    const auto m = preduce::reduce(preduce::backend::seq, v, preduce::minmax);
    std::printf("sum %g, min %g, max %g\n", s, m.min, m.max);
    return s == 500.0f && m.min == 0.5f && m.max == 0.5f ? 0 : 1;
}
