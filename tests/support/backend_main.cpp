// Runner of the shared backend body: a backend that is built but cannot run here (the
// CUDA backend on a machine without a GPU) makes every case exit with ctest's skip code
// and says why, instead of failing or silently passing.

#include <cstdio>
#include <cstring>

#include "support/catch_session.hpp"
#include "support/data.hpp"
#include "support/under_test.hpp"

int main(int argc, char* argv[]) {
    bool listing = false;
    for (int i = 1; i < argc; ++i) listing = listing || std::strncmp(argv[i], "--list", 6) == 0;
    const preduce::backend b = preduce::test::under_test();
    if (!listing && !preduce::is_usable(b)) {
        std::printf("SKIPPED: backend '%s' is built but cannot run on this machine: %s\n",
                    std::string(preduce::name(b)).c_str(), preduce::unusable_reason(b).c_str());
        return 77;
    }
    if (!listing)
        std::printf("backend %s, data in %s memory, seed %llu (set PREDUCE_TEST_SEED to repeat)\n",
                    preduce::describe(b).c_str(), preduce::test::residency().c_str(),
                    static_cast<unsigned long long>(preduce::test::seed()));
    return preduce::test::run_catch(argc, argv);
}
