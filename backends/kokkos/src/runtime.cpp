#include "preduce/kokkos/runtime.hpp"

#include <dlfcn.h>

#include <Kokkos_Core.hpp>

#include <atomic>
#include <cstdint>
#include <cstdlib>
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

namespace {
// The CUDA driver API, looked up in a libcuda that is already loaded (RTLD_NOLOAD): no
// CUDA headers or link dependency, and no driver start-up cost for host-only processes.
// Values from cuda.h, stable ABI since CUDA 4.
using cu_pointer_get_attribute_fn = int (*)(void* data, int attribute, unsigned long long ptr);
constexpr int cu_success = 0;
constexpr int cu_pointer_attribute_memory_type = 2;  // CU_POINTER_ATTRIBUTE_MEMORY_TYPE
constexpr int cu_pointer_attribute_is_managed = 8;   // CU_POINTER_ATTRIBUTE_IS_MANAGED
constexpr unsigned cu_memorytype_device = 2;         // CU_MEMORYTYPE_DEVICE
constexpr unsigned cu_memorytype_array = 3;          // CU_MEMORYTYPE_ARRAY

std::atomic<cu_pointer_get_attribute_fn> cached_query{nullptr};

cu_pointer_get_attribute_fn cuda_query() noexcept {
    if (auto f = cached_query.load(std::memory_order_acquire)) return f;
    // Not loaded yet: ask again next time (the application may start CUDA later).
    void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (lib == nullptr) return nullptr;
    // The handle is kept: it pins libcuda, so the cached pointer stays valid.
    auto f = reinterpret_cast<cu_pointer_get_attribute_fn>(dlsym(lib, "cuPointerGetAttribute"));
    if (f != nullptr) cached_query.store(f, std::memory_order_release);
    return f;
}
} // namespace

memory_kind locate(const void* p) noexcept {
    const auto query = cuda_query();
    if (query == nullptr || p == nullptr) return memory_kind::host;
    const auto address = static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p));
    unsigned managed = 0;
    if (query(&managed, cu_pointer_attribute_is_managed, address) == cu_success && managed != 0)
        return memory_kind::managed;
    unsigned type = 0;
    // Unknown to CUDA (ordinary malloc memory) returns an error: host.
    if (query(&type, cu_pointer_attribute_memory_type, address) != cu_success) return memory_kind::host;
    return type == cu_memorytype_device || type == cu_memorytype_array ? memory_kind::device : memory_kind::host;
}

} // namespace preduce::kokkos
