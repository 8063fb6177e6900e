#include "preduce/kokkos/info.hpp"

#include <Kokkos_Core.hpp>

namespace preduce::kokkos {
const char* execution_space_name() noexcept { return Kokkos::DefaultExecutionSpace::name(); }
int kokkos_version() noexcept { return KOKKOS_VERSION; }
} // namespace preduce::kokkos
