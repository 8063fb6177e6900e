#pragma once
// The non-template half of the Kokkos backend, compiled into libpreduce_kokkos: Kokkos'
// lifecycle, the thread preduce's launches run on, and where a pointer lives. The
// header-only template (reduce.hpp) calls these, so it needs target preduce::kokkos too.
#include <optional>
#include <type_traits>
#include <utility>

#include "preduce/detail/runtime/residence.hpp"

namespace preduce::kokkos {

namespace detail {
// Runs task(arg) as launch() below says; what task throws comes out here.
void run_launch(void (*task)(void*), void* arg);
} // namespace detail

// Runs f() with Kokkos ready for it and returns what f returns (or throws what it throws).
//  - Kokkos is initialized on first use when the application has not (reading KOKKOS_* and
//    OMP_* environment variables as Kokkos::initialize does) and finalized at exit; a Kokkos
//    the application initialized is used and never finalized by preduce.
//  - One f at a time: Kokkos does not promise that two host threads may launch on one
//    execution space instance at once (3.4's Serial resizes a process-wide scratch buffer
//    in every parallel_reduce; CUDA instances share reduction scratch).
//  - Kokkos::Threads takes launches that grow its scratch, and its finalize, only from the
//    thread that initialized it. Where it is the host space and preduce initializes Kokkos,
//    that is a thread of preduce's own: f runs there while the caller waits.
//  - Throws backend_unavailable when Kokkos has been finalized (it cannot be initialized
//    twice in one process), when Kokkos::initialize fails, or when a KOKKOS_* variable holds
//    a value on which Kokkos::initialize would abort the process (Kokkos 4 does so for
//    KOKKOS_NUM_THREADS=many, where 3.4 threw).
// An application that owns Kokkos must initialize it before its first preduce call.
template <class F>
std::invoke_result_t<F&> launch(F&& f) {
    using result = std::invoke_result_t<F&>;
    if constexpr (std::is_void_v<result>) {
        detail::run_launch([](void* p) { (*static_cast<std::remove_reference_t<F>*>(p))(); }, &f);
    } else {
        std::optional<result> out;
        auto call = [&] { out.emplace(f()); };
        detail::run_launch([](void* p) { (*static_cast<decltype(call)*>(p))(); }, &call);
        return std::move(*out);
    }
}

// True once this process has seen Kokkos finalized (by the application, or by preduce at exit).
bool finalized() noexcept;

// Where a pointer lives: preduce::detail::locate (preduce/detail/runtime/residence.hpp).
using ::preduce::detail::locate;
using ::preduce::detail::memory_kind;

} // namespace preduce::kokkos
