// A C++ program (no CUDA compiler needed) that calls the cuda backend on float sums through
// the front end, linking preduce::frontend and preduce::cuda alone. Where no GPU is visible
// the backend says why it cannot run, and the program checks that instead.
#include <preduce/preduce.hpp>

#include <cstdio>
#include <string>
#include <vector>

int main() {
    const std::vector<float> v(1 << 20, 0.25f);  // sum 262144 exactly
    int failures = preduce::is_linked(preduce::backend::cuda) ? 0 : 1;
    for (preduce::backend b : preduce::all_backends)
        if (b != preduce::backend::cuda) failures += preduce::is_linked(b);  // the others are not linked
    if (!preduce::is_usable(preduce::backend::cuda)) {
        const std::string reason = preduce::unusable_reason(preduce::backend::cuda);
        std::printf("cuda not usable here: %s\n", reason.c_str());
        return failures == 0 && reason.find("not linked") == std::string::npos ? 0 : 1;
    }
    const float s = preduce::reduce(preduce::backend::cuda, v, preduce::sum);
    const float d = preduce::reduce(preduce::backend::cuda, v, preduce::sum, {.precision = preduce::precision::deterministic});
    std::printf("%s: sum %g, deterministic %g\n", preduce::describe(preduce::backend::cuda).c_str(), s, d);
    return failures == 0 && s == 262144.0f && d == 262144.0f ? 0 : 1;
}
