#pragma once
// Plain functions about the Kokkos this preduce was built with, for callers that do not
// include Kokkos (src/backend.cpp's describe(), the CLI, the benchmarks).

namespace preduce::kokkos {

// Kokkos::DefaultExecutionSpace::name(): "Serial", "OpenMP", "Threads", "Cuda", ...
const char* execution_space_name() noexcept;

// KOKKOS_VERSION of the headers preduce was compiled against, e.g. 30401 or 40500.
int kokkos_version() noexcept;

} // namespace preduce::kokkos
