#pragma once
// Plain functions about the Kokkos this preduce was built with, for callers that do not
// include Kokkos (src/backend.cpp's describe(), the CLI, the benchmarks).

namespace preduce::kokkos {

// Kokkos::DefaultExecutionSpace::name(): "Serial", "OpenMP", "Threads", "Cuda", ...
const char* execution_space_name() noexcept;

// Whether that execution space runs on the host (Serial, OpenMP, Threads): it then reads
// host memory in place and refuses device memory; a device space (Cuda, HIP, ...) reads
// device and managed memory in place and copies host data over first.
bool runs_on_host() noexcept;

// KOKKOS_VERSION of the headers preduce was compiled against, e.g. 30401 or 40500.
int kokkos_version() noexcept;

} // namespace preduce::kokkos
