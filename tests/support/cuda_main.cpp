// Runner of the Catch2 programs compiled by nvcc (tests/cuda/async_cases.cu,
// tests/multigpu/multigpu_cases.cu, tests/reliability/cuda_async_failures.cu). A case runs
// only where the GPUs it needs are visible, and one that cannot run is reported as skipped,
// never as passed: an invocation whose selected cases all need more GPUs than this machine
// has exits with ctest's skip code (77) and says why. What a case needs, by its tag:
//   [plan]   no GPU (host-side code of the CUDA backend): runs everywhere
//   [multi]  at least 2 visible GPUs
//   others   one usable GPU (preduce::is_usable(backend::cuda))
// Where the selection mixes them (the whole program run by hand on a machine without enough
// GPUs), the cases that can run do, the others are named as skipped, and the exit code is
// that of the cases that ran. Listing (--list-*, used by catch_discover_tests) never skips;
// a test spec that matches no case fails (exit 2), as Catch2's `--warn NoTests` does.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "preduce/backend.hpp"

namespace {

// GPUs a case needs, from its tags.
int gpus_needed(const Catch::TestCaseInfo& t) {
    for (const std::string& tag : t.lcaseTags) {
        if (tag == "plan") return 0;
        if (tag == "multi") return 2;
    }
    return 1;
}

// A test name as a Catch2 test spec that matches it alone: the characters the spec parser
// treats specially are escaped with a backslash.
std::string spec_of(const std::string& name) {
    std::string out;
    for (char c : name) {
        if (c == '\\' || c == ',' || c == '[' || c == ']' || c == '"' || c == '~') out += '\\';
        out += c;
    }
    return out;
}

} // namespace

int main(int argc, char* argv[]) {
    Catch::Session session;
    if (const int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;
    Catch::ConfigData& data = session.configData();
    if (data.showHelp || data.libIdentify || data.listTests || data.listTestNamesOnly || data.listTags ||
        data.listReporters)
        return session.run();

    // A test spec that matches no case (a misspelt or mangled name) fails instead of passing.
    data.warnings = static_cast<Catch::WarnAbout::What>(data.warnings | Catch::WarnAbout::NoTests);

    const bool usable = preduce::is_usable(preduce::backend::cuda);
    int gpus = 0;
    std::string why;  // why a case needing one GPU cannot run here
    if (!usable) {
        why = "the cuda backend cannot run on this machine: " + preduce::unusable_reason(preduce::backend::cuda);
    } else if (const cudaError_t e = cudaGetDeviceCount(&gpus); e != cudaSuccess) {
        gpus = 0;
        why = std::string("cudaGetDeviceCount failed: ") + cudaGetErrorString(e);
    }

    const Catch::Config& config = session.config();
    std::vector<std::string> runnable, skipped;
    int most = 0;  // the most GPUs a skipped case needs
    for (const Catch::TestCase& t : Catch::filterTests(Catch::getAllTestCasesSorted(config), config.testSpec(), config)) {
        const int needs = gpus_needed(t);
        if (needs <= gpus) {
            runnable.push_back(t.name);
        } else {
            skipped.push_back(t.name);
            most = std::max(most, needs);
        }
    }
    if (!skipped.empty()) {
        if (most >= 2 && gpus >= 1)
            std::printf("SKIPPED: %zu case(s) need at least 2 GPUs; %d is visible. They did NOT run:\n", skipped.size(), gpus);
        else
            std::printf("SKIPPED: %zu case(s) need a GPU and %s. They did NOT run:\n", skipped.size(), why.c_str());
        for (const std::string& name : skipped) std::printf("  %s\n", name.c_str());
        std::fflush(stdout);
        if (runnable.empty()) return 77;
        // Run only the cases this machine can run.
        std::string spec;
        for (const std::string& name : runnable) spec += (spec.empty() ? "" : ",") + spec_of(name);
        Catch::ConfigData only = data;
        only.testsOrTags = {spec};
        session.useConfigData(only);
    }
    return session.run();
}
