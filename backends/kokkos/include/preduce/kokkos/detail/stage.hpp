#pragma once
// Making an input array readable by the execution space. A host space reads host and
// managed memory in place and refuses CUDA device memory (invalid_argument, rather than
// a crash); a device space reads device and managed memory in place and copies host data
// to its own memory first. A two-input source stages each array on its own: one may be
// on the device and the other on the host.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>

#include "preduce/errors.hpp"
#include "preduce/source.hpp"
#include "preduce/kokkos/detail/space.hpp"
#include "preduce/kokkos/runtime.hpp"

namespace preduce::kokkos::detail {

inline const char* memory_name(memory_kind k) {
    switch (k) {
    case memory_kind::host: return "host";
    case memory_kind::pinned: return "pinned host";
    case memory_kind::managed: return "CUDA managed";
    case memory_kind::device: return "CUDA device";
    }
    return "unknown";
}

// data[0, n) as ExecSpace reads it. `where` is locate(data), `what` names the array in
// messages. Construct with Kokkos initialized (inside launch()); the copy, if any, lives
// as long as this object.
template <class ExecSpace, class T>
class staged_array {
public:
    staged_array(const T* data, std::size_t n, memory_kind where, const char* what) : ptr_(data) {
        if constexpr (is_host_space<ExecSpace>) {
            if (where == memory_kind::device)
                throw invalid_argument(std::string("preduce::reduce(kokkos): ") + what + " points to " +
                                       memory_name(where) + " memory, but this Kokkos runs on " + ExecSpace::name() +
                                       " (host only); copy the data to host memory, use backend::cuda, or build "
                                       "preduce against a Kokkos with CUDA enabled (-DKokkos_ROOT=...)");
        } else if (where == memory_kind::host || where == memory_kind::pinned) {
            copy_ = Kokkos::View<T*, mem_space>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "preduce::kokkos input"),
                                                n);
            Kokkos::deep_copy(copy_, unmanaged_view<T, Kokkos::HostSpace>(data, n));
            ptr_ = copy_.data();
        }
    }
    const T* get() const { return ptr_; }

private:
    using mem_space = typename ExecSpace::memory_space;
    Kokkos::View<T*, mem_space> copy_;  // empty unless host data was copied for a device space
    const T* ptr_;
};

// For a host execution space reading an array in place (the segmented path): CUDA device
// memory is refused, as staged_array does for whole-array reductions.
template <class T>
void require_host_memory(const T* p, std::size_t n, const char* what) {
    if (n != 0 && locate(p) == memory_kind::device)
        throw invalid_argument(std::string("preduce::kokkos: the ") + what +
                               " is CUDA device memory, but this Kokkos runs on the host; copy it to host memory or "
                               "use backend::cuda");
}

template <class A, class B>
void require_host_memory(const zip_source<A, B>& s, std::size_t n, const char* what) {
    require_host_memory(s.first, n, what);
    require_host_memory(s.second, n, what);
}

} // namespace preduce::kokkos::detail
