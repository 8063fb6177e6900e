// A program that links the front end and the CPU backends it calls (preduce::frontend,
// preduce::seq, preduce::openmp where built), not preduce::preduce: it carries those and
// nothing else. Every other backend of the installation is built but not linked here, and
// says so; the CMake test beside it checks that the program holds no GPU code.
#include <preduce/preduce.hpp>

#include <cstdio>
#include <string>
#include <vector>

int main() {
    std::vector<float> v(100000);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 100);  // sum 4950000 exactly
    int failures = 0;
    std::vector<preduce::backend> mine{preduce::backend::seq};
#if defined(CONSUMER_HAS_OPENMP)
    mine.push_back(preduce::backend::openmp);
#endif
    for (preduce::backend b : mine) {
        const double s = preduce::reduce(b, v, preduce::wide_sum);
        const float m = preduce::reduce(b, v, preduce::nanmax);
        std::printf("%-20s wide_sum=%.1f nanmax=%g\n", preduce::describe(b).c_str(), s, m);
        failures += (s != 4950000.0) + (m != 99.0f) + !preduce::is_linked(b);
    }
    for (preduce::backend b : preduce::all_backends) {
        bool linked_here = false;
        for (preduce::backend m : mine) linked_here |= m == b;
        if (linked_here || !preduce::is_built(b)) continue;
        // Built into the installation, not linked into this program.
        const std::string reason = preduce::unusable_reason(b);
        std::printf("%-20s %s\n", preduce::describe(b).c_str(), reason.c_str());
        failures += preduce::is_linked(b) + preduce::is_usable(b) + (reason.find("not linked") == std::string::npos);
        try {
            (void)preduce::reduce(b, v, preduce::sum);
            ++failures;
        } catch (const preduce::backend_unavailable& e) {
            failures += std::string(e.what()) != reason;
        }
    }
    for (preduce::backend b : preduce::available_backends()) failures += !preduce::is_linked(b);
    return failures == 0 ? 0 : 1;
}
