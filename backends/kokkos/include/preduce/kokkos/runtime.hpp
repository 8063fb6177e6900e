#pragma once
// The non-template half of the Kokkos backend, compiled into libpreduce_kokkos: Kokkos'
// lifecycle and where a pointer lives. The header-only template (reduce.hpp) calls these,
// so it needs target preduce::kokkos too.
#include <mutex>

#include "preduce/detail/residence.hpp"

namespace preduce::kokkos {

// Kokkos for the calling thread, held until the returned lock goes away:
//  - initializes Kokkos on first use when the application has not (reading KOKKOS_* and
//    OMP_* environment variables as Kokkos::initialize does), and finalizes that Kokkos
//    at exit; a Kokkos the application initialized is used and never finalized by us;
//  - serializes preduce's launches: Kokkos does not promise that two host threads may
//    launch on one execution space instance at once (3.4's Serial resizes a process-wide
//    scratch buffer in every parallel_reduce; CUDA instances share reduction scratch);
//  - throws backend_unavailable when Kokkos has already been finalized (it cannot be
//    initialized twice in one process) or when Kokkos::initialize fails.
// An application that owns Kokkos must initialize it before its first preduce call.
[[nodiscard]] std::unique_lock<std::mutex> acquire();

// True once this process has seen Kokkos finalized (by the application, or by preduce at exit).
bool finalized() noexcept;

// Where a pointer lives: preduce::detail::locate (preduce/detail/residence.hpp).
using ::preduce::detail::locate;
using ::preduce::detail::memory_kind;

} // namespace preduce::kokkos
