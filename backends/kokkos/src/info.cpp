#include "preduce/kokkos/info.hpp"

#include "preduce/kokkos/reduce.hpp"

namespace preduce::kokkos::info {
const char* execution_space_name() noexcept { return Kokkos::DefaultExecutionSpace::name(); }
bool runs_on_host() noexcept { return is_host_space<execution_space>; }
int kokkos_version() noexcept { return KOKKOS_VERSION; }
} // namespace preduce::kokkos::info
