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

// A View of n elements in MemSpace, uninitialized. Kokkos reports a failed allocation as
// std::runtime_error (4.6) or std::bad_alloc (other versions): both become out_of_memory,
// which callers can tell from other failures.
template <class T, class MemSpace>
Kokkos::View<T*, MemSpace> allocate(std::size_t n, const char* label) {
    try {
        return Kokkos::View<T*, MemSpace>(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
    } catch (const std::exception& e) {
        throw out_of_memory(std::string("preduce::reduce(kokkos): cannot allocate ") + std::to_string(n * sizeof(T)) +
                            " bytes in " + MemSpace::name() + " (" + e.what() + ")");
    }
}

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
            copy_ = allocate<T, mem_space>(n, "preduce::kokkos input");
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

// data[0, n) readable on the host (the offsets of few segments on a device space, to cut their
// work): in place, unless it is CUDA device memory, which is copied to host memory first.
// Construct inside launch().
template <class T>
class host_readable {
public:
    host_readable(const T* data, std::size_t n) : ptr_(data) {
        if (n != 0 && locate(data) == memory_kind::device) {
            copy_ = allocate<T, Kokkos::HostSpace>(n, "preduce::kokkos host copy");
            Kokkos::deep_copy(copy_, unmanaged_view<T, Kokkos::DefaultExecutionSpace::memory_space>(data, n));
            ptr_ = copy_.data();
        }
    }
    const T* get() const { return ptr_; }

private:
    Kokkos::View<T*, Kokkos::HostSpace> copy_;  // empty unless the data was copied
    const T* ptr_;
};

// A source (one array, or the two of a zip) as ExecSpace reads it: .get() gives it. Construct
// inside launch(); copies, if any, live as long as the returned object.
template <class ExecSpace, class A, class B>
struct staged_zip {
    staged_array<ExecSpace, A> x;
    staged_array<ExecSpace, B> y;
    zip_source<A, B> get() const { return {x.get(), y.get()}; }
};
template <class ExecSpace, class T>
staged_array<ExecSpace, T> stage_source(const T* data, std::size_t n) {
    return staged_array<ExecSpace, T>(data, n, locate(data), "data");
}
template <class ExecSpace, class A, class B>
staged_zip<ExecSpace, A, B> stage_source(zip_source<A, B> src, std::size_t n) {
    return {staged_array<ExecSpace, A>(src.first, n, locate(src.first), "x"),
            staged_array<ExecSpace, B>(src.second, n, locate(src.second), "y")};
}

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
