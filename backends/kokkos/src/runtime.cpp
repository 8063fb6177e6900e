#include "preduce/kokkos/runtime.hpp"

#include <Kokkos_Core.hpp>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "preduce/errors.hpp"

namespace preduce::kokkos {

namespace {

// Constant-initialized, trivially destructible in practice: usable from atexit handlers.
std::mutex launch_mutex;
bool we_initialized = false;             // guarded by launch_mutex
bool hook_pushed = false;                // guarded by launch_mutex
std::atomic<bool> seen_finalize{false};  // set by a Kokkos finalize hook, which may run on any thread

// atexit handler, registered right after our Kokkos::initialize so that it runs before
// the static destructors and runtime teardown (CUDA's) that initialize set up.
void finalize_ours() noexcept {
    std::lock_guard<std::mutex> lock(launch_mutex);
    if (we_initialized && Kokkos::is_initialized()) Kokkos::finalize();
    we_initialized = false;
}

bool kokkos_finalized() noexcept {
    if (seen_finalize.load()) return true;
#if KOKKOS_VERSION >= 30700
    return Kokkos::is_finalized();
#else
    return false;  // Kokkos 3.4 cannot say; 3.x re-initializes after finalize without complaint
#endif
}

} // namespace

bool finalized() noexcept { return kokkos_finalized(); }

std::unique_lock<std::mutex> acquire() {
    std::unique_lock<std::mutex> lock(launch_mutex);
    if (!Kokkos::is_initialized()) {
        if (kokkos_finalized())
            throw backend_unavailable(
                "preduce::reduce(kokkos): Kokkos has been finalized and cannot be initialized again in this "
                "process; reduce before Kokkos::finalize() (e.g. keep a Kokkos::ScopeGuard alive in main)");
        try {
            // argc/argv rather than InitArguments (3.x) or InitializationSettings (3.7+):
            // the one form every version has; Kokkos still reads KOKKOS_* variables.
            int argc = 1;
            char program[] = "preduce";
            char* argv[] = {program, nullptr};
            Kokkos::initialize(argc, argv);
        } catch (const std::exception& e) {
            throw backend_unavailable(std::string("preduce::reduce(kokkos): Kokkos::initialize failed: ") + e.what());
        }
        we_initialized = true;
        std::atexit(finalize_ours);
    }
    if (!hook_pushed) {
        // Whoever finalizes this Kokkos (the application, or finalize_ours), later calls
        // get backend_unavailable instead of a second initialize, which Kokkos 4 forbids.
        Kokkos::push_finalize_hook([] { seen_finalize.store(true); });
        hook_pushed = true;
    }
    return lock;
}

} // namespace preduce::kokkos
