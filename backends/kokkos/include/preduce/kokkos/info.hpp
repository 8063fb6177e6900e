#pragma once
// What the front end asks of every backend (detail/routing/backend_table.hpp), for kokkos, and a
// few facts about the Kokkos this preduce was built with, in plain C++ for callers that do
// not include Kokkos (the front end, the CLI, the benchmarks).
#include <string>

#include "preduce/options.hpp"

namespace preduce::kokkos::info {

// Kokkos::DefaultExecutionSpace::name(): "Serial", "OpenMP", "Threads", "Cuda", ...
const char* execution_space_name() noexcept;

// Whether that execution space runs on the host (Serial, OpenMP, Threads): it then reads
// host memory in place and refuses device memory; a device space (Cuda, HIP, ...) reads
// device and managed memory in place and copies host data over first.
bool runs_on_host() noexcept;

// KOKKOS_VERSION of the headers preduce was compiled against, e.g. 30401 or 40500.
int kokkos_version() noexcept;

inline bool usable() noexcept { return true; }
inline std::string unusable_reason() { return {}; }
inline std::string detail(const options&) { return execution_space_name(); }
// Device pointers are passed on: a device execution space reads them, a host space
// refuses them itself (it knows which it is).
inline void check_options(const options&) {}
inline constexpr bool reads_device_memory = true;

} // namespace preduce::kokkos::info
