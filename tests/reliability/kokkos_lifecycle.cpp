// The Kokkos backend when Kokkos cannot run: Kokkos lives once per process (it cannot be
// initialized again after finalize, Kokkos >= 4 refuses outright), so an application that
// finalizes it, or an environment Kokkos rejects, must turn into backend_unavailable with
// a message, and the other backends must go on working. Each scenario needs a fresh
// process, so ctest runs this program once per scenario name.
#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "preduce/preduce.hpp"
#include "support/data.hpp"

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
    std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
    if (!ok) ++failures;
}

// What f() threw, with its type, or "" when it returned.
template <class F>
std::string error_of(F&& f) {
    try {
        f();
        return {};
    } catch (const preduce::backend_unavailable& e) {
        return std::string("backend_unavailable: ") + e.what();
    } catch (const std::exception& e) {
        return std::string("other exception: ") + e.what();
    }
}

const std::vector<std::int64_t>& data() {
    static const auto v = preduce::test::random_values<std::int64_t>(100003, 1);
    return v;
}

std::int64_t seq_sum() { return preduce::reduce(preduce::backend::seq, data(), preduce::sum); }

void expect_kokkos_works(const char* when) {
    std::int64_t got = 0;
    const std::string e = error_of([&] { got = preduce::reduce(preduce::backend::kokkos, data(), preduce::sum); });
    expect(e.empty() && got == seq_sum(), std::string("kokkos gives seq's sum ") + when + (e.empty() ? "" : " (" + e + ")"));
}

// backend_unavailable whose message names the cause, twice (the state is stable), and the
// other host backends unaffected.
void expect_kokkos_unavailable(const char* when, const char* cause) {
    for (int attempt = 0; attempt < 2; ++attempt) {
        const std::string e = error_of([] { (void)preduce::reduce(preduce::backend::kokkos, data(), preduce::sum); });
        std::printf("  message: %s\n", e.c_str());
        expect(e.rfind("backend_unavailable: ", 0) == 0 && e.find(cause) != std::string::npos,
               std::string("kokkos is backend_unavailable mentioning '") + cause + "' " + when);
    }
    for (preduce::backend b : preduce::available_backends()) {
        if (b == preduce::backend::kokkos || b == preduce::backend::cuda) continue;
        std::int64_t got = 0;
        const std::string e = error_of([&] { got = preduce::reduce(b, data(), preduce::sum, {.threads = 2}); });
        expect(e.empty() && got == seq_sum(), std::string(preduce::name(b)) + " still works " + when);
    }
}

int kokkos_version() {
    return KOKKOS_VERSION;
}

// The application's Kokkos::finalize of preduce's Kokkos, from this thread. Kokkos::Threads
// refuses a finalize from any thread but the one that initialized it, which for a Kokkos
// preduce initialized is a thread of preduce's own: there Kokkos throws, after it has run
// the finalize hooks, so preduce must still see Kokkos finalized.
void finalize_preduce_kokkos() {
#if defined(KOKKOS_ENABLE_THREADS)
    if constexpr (std::is_same_v<Kokkos::DefaultHostExecutionSpace, Kokkos::Threads>) {
        const std::string e = error_of([] { Kokkos::finalize(); });
        std::printf("  Kokkos::finalize of Kokkos::Threads from another thread: %s\n", e.empty() ? "returned" : e.c_str());
        return;
    }
#endif
    Kokkos::finalize();
}

const std::vector<std::pair<std::string, std::function<void(int&, char**)>>> scenarios = {
    // The documented use: the application owns Kokkos and finalizes it at the end; a
    // reduction after that must not initialize a second Kokkos.
    {"app_finalizes_after_use",
     [](int& argc, char** argv) {
         Kokkos::initialize(argc, argv);
         expect_kokkos_works("inside the application's Kokkos");
         Kokkos::finalize();
         expect_kokkos_unavailable("after the application's Kokkos::finalize", "finalized");
     }},
    // preduce initialized Kokkos on first use; the application then finalizes it (a library
    // of its own calling Kokkos::finalize). preduce must notice and not finalize it twice at exit.
    {"app_finalizes_preduce_kokkos",
     [](int&, char**) {
         expect_kokkos_works("on first use (preduce initializes Kokkos)");
         expect(Kokkos::is_initialized(), "preduce left Kokkos initialized for later calls");
         finalize_preduce_kokkos();
         expect_kokkos_unavailable("after Kokkos::finalize of preduce's Kokkos", "finalized");
     }},
    // The application initialized and finalized Kokkos before preduce ever ran. Kokkos
    // 3.7+ can say so (Kokkos::is_finalized); 3.4-3.6 cannot, and initialize a second time
    // without complaint, so there a correct result is the right outcome.
    {"app_finalizes_before_use",
     [](int& argc, char** argv) {
         Kokkos::initialize(argc, argv);
         Kokkos::finalize();
         if (kokkos_version() >= 30700) expect_kokkos_unavailable("after finalize before first use", "finalized");
         else expect_kokkos_works("after finalize before first use (Kokkos < 3.7 re-initializes)");
     }},
    // KOKKOS_* variables are read by Kokkos::initialize, which preduce calls on first use;
    // Kokkos 3.4 throws on a thread count that is not a number, Kokkos 4 aborts the process,
    // so preduce checks them first. Once the variable is fixed, the next call initializes
    // Kokkos and works: a refused initialize leaves nothing behind.
    {"bad_environment",
     [](int&, char**) {
         const std::pair<const char*, const char*> bad[] = {{"KOKKOS_NUM_THREADS", "many"},
                                                             {"KOKKOS_NUM_THREADS", "0"},
                                                             {"KOKKOS_DEVICE_ID", "-1"},
                                                             {"KOKKOS_DISABLE_WARNINGS", "maybe"},
                                                             {"KOKKOS_MAP_DEVICE_ID_BY", "rank"}};
         for (const auto& [name, value] : bad) {
             setenv(name, value, 1);
             expect_kokkos_unavailable((std::string("with ") + name + "=" + value).c_str(), name);
             unsetenv(name);
         }
         expect_kokkos_works("once the variables are unset");
     }},
};

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s SCENARIO (", argv[0]);
        for (const auto& s : scenarios) std::fprintf(stderr, " %s", s.first.c_str());
        std::fprintf(stderr, " )\n");
        return 2;
    }
    std::printf("Kokkos %d, seed %llu\n", kokkos_version(), static_cast<unsigned long long>(preduce::test::seed()));
    for (const auto& s : scenarios) {
        if (s.first != argv[1]) continue;
        int kokkos_argc = 1;
        s.second(kokkos_argc, argv);
        std::printf("%s: %d failure(s)\n", argv[1], failures);
        return failures == 0 ? 0 : 1;
    }
    std::fprintf(stderr, "unknown scenario '%s'\n", argv[1]);
    return 2;
}
