// detail::locate when CUDA's driver library is loaded after the first call on host data: the
// query must still find it (it looks again whenever the process has loaded an object since
// its last look), so device memory given to a host backend is refused as before. A stand-in
// driver (fake_libcuda.cpp, path in PREDUCE_FAKE_LIBCUDA) plays the driver; where a real
// libcuda is already loaded, the case has nothing to check and says so.
#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <vector>

#include "preduce/detail/runtime/residence.hpp"
#include "preduce/preduce.hpp"

namespace {
// Whether the real driver is loaded already (its soname; the stand-in's file is libcuda.so).
bool libcuda_loaded() {
    void* lib = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (lib != nullptr) dlclose(lib);  // NOLOAD took a reference
    return lib != nullptr;
}
} // namespace

TEST_CASE("a CUDA driver loaded after the first host call is found by the residence query", "[runtime][errors]") {
    if (libcuda_loaded()) {
        WARN("a libcuda is loaded in this process already: nothing to check");
        return;
    }
    std::vector<float> host(64, 1.0f);
    // Host calls before any driver is loaded: every pointer is host memory.
    CHECK(preduce::reduce(preduce::backend::seq, host.data(), host.size(), preduce::sum) == 64.0f);
    CHECK(preduce::detail::locate(host.data()) == preduce::detail::memory_kind::host);
    CHECK(preduce::detail::locate(host.data()) == preduce::detail::memory_kind::host);  // the cheap path

    void* lib = dlopen(PREDUCE_FAKE_LIBCUDA, RTLD_NOW | RTLD_LOCAL);
    REQUIRE(lib != nullptr);
    auto* device = static_cast<float*>(dlsym(lib, "fake_device_memory"));
    REQUIRE(device != nullptr);
    CHECK(preduce::detail::locate(device) == preduce::detail::memory_kind::device);
    CHECK(preduce::detail::locate(host.data()) == preduce::detail::memory_kind::host);
    CHECK_THROWS_AS(preduce::reduce(preduce::backend::seq, device, 64, preduce::sum), preduce::invalid_argument);
    CHECK(preduce::reduce(preduce::backend::seq, host.data(), host.size(), preduce::sum) == 64.0f);
    // The library stays loaded: locate keeps its handle and the query it found.
}
