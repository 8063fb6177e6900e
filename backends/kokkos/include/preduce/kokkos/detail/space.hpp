#pragma once
// Where the Kokkos backend runs and how it indexes, shared by its launch paths.
#include <Kokkos_Core.hpp>

#include <cstdint>

namespace preduce::kokkos {

using execution_space = Kokkos::DefaultExecutionSpace;

// Whether the execution space runs on the host (reads host memory in place).
template <class ExecSpace>
inline constexpr bool is_host_space = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;

namespace detail {

template <class T, class MemSpace>
using unmanaged_view = Kokkos::View<const T*, MemSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// 64-bit indices: Kokkos' default index type on CUDA is 32-bit and wraps past 2^32.
template <class ExecSpace>
using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;

} // namespace detail
} // namespace preduce::kokkos
