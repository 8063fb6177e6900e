#include <preduce/preduce.hpp>

#include <cstdio>
#include <vector>

int main() {
    std::vector<float> v(100000);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 100);  // sum 4950000 exactly
    int failures = 0;
    for (preduce::backend b : preduce::available_backends()) {
        const double s = preduce::reduce(b, v, preduce::wide_sum);
        const auto am = preduce::reduce(b, v, preduce::argmax);
        std::printf("%-8s wide_sum=%.1f argmax={%g, %zu}\n", preduce::describe(b).c_str(), s, am.value, am.index);
        failures += (s != 4950000.0) + (am.value != 99.0f || am.index != 99);
    }
    try {
        preduce::reduce(preduce::backend::seq, static_cast<const float*>(nullptr), 3, preduce::sum);
        ++failures;
    } catch (const preduce::invalid_argument&) {
    }
    return failures == 0 ? 0 : 1;
}
