#pragma once
// The non-template half of the Kokkos backend, compiled into libpreduce_kokkos: Kokkos'
// lifecycle and where a pointer lives. The header-only template (reduce.hpp) calls these,
// so it needs target preduce::kokkos too.
#include <mutex>

namespace preduce::kokkos {

// Kokkos for the calling thread, held until the returned lock goes away:
//  - initializes Kokkos on first use when the application has not (reading KOKKOS_* and
//    OMP_* environment variables as Kokkos::initialize does), and finalizes that Kokkos
//    at exit; a Kokkos the application initialized is used and never finalized by us;
//  - serializes preduce's launches: Kokkos before 4 keeps one reduction scratch buffer
//    per execution space (Serial's is a global), so two host threads in parallel_reduce
//    at once would share it;
//  - throws backend_unavailable when Kokkos has already been finalized (it cannot be
//    initialized twice in one process) or when Kokkos::initialize fails.
// An application that owns Kokkos must initialize it before its first preduce call.
[[nodiscard]] std::unique_lock<std::mutex> acquire();

// True once this process has seen Kokkos finalized (by the application, or by preduce at exit).
bool finalized() noexcept;

// Where an address lives, as far as this process can tell.
enum class memory_kind {
    host,     // ordinary or pinned host memory (or no GPU runtime is loaded at all)
    managed,  // CUDA managed memory: reachable from host and device
    device,   // CUDA device memory: the host cannot read it
};

// Asks the CUDA driver (libcuda, when this process has loaded it: a CUDA-enabled Kokkos,
// the cuda backend, the application) about p; host when no driver is loaded, since then
// no device memory can exist. Works whether or not this Kokkos was built with CUDA.
memory_kind locate(const void* p) noexcept;

} // namespace preduce::kokkos
