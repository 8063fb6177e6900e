#pragma once
// The Kokkos backend: one Kokkos::parallel_reduce over Kokkos::DefaultExecutionSpace.
// Each index of the 64-bit RangePolicy folds many elements (detail/fold.hpp); the partial
// results meet in a Kokkos reducer that equals R (detail/reducer.hpp). Works with Kokkos
// 3.4 (Debian's libtrilinos-kokkos-dev, Serial) through 5.x with OpenMP, Threads or CUDA.
//
// Memory: the caller's pointer is wrapped as an unmanaged View. A host execution space
// reads it in place; CUDA device memory handed to a host execution space is refused
// (invalid_argument). A device execution space reads device and managed memory in place
// and copies host data to a View in its memory space first.
//
// Compile with Kokkos' compiler (nvcc_wrapper for CUDA) and link preduce::kokkos, which
// also provides the lifecycle (runtime.hpp).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <type_traits>

#include "preduce/errors.hpp"
#include "preduce/detail/lane_fold.hpp"
#include "preduce/kokkos/detail/fold.hpp"
#include "preduce/kokkos/detail/reducer.hpp"
#include "preduce/kokkos/runtime.hpp"
#include "preduce/options.hpp"
#include "preduce/reducers.hpp"

namespace preduce::kokkos {

using execution_space = Kokkos::DefaultExecutionSpace;

// Whether the execution space runs on the host (reads host memory in place).
template <class ExecSpace>
inline constexpr bool is_host_space = Kokkos::SpaceAccessibility<ExecSpace, Kokkos::HostSpace>::accessible;

namespace tuning {
// Host: elements per parallel_reduce index. Measured on Serial (this 2-core x86 box, float
// sum, 2^17 floats in cache): 120 / 126 / 129 GB/s with 2K / 16K / 64K chunks, so the
// per-index cost (Kokkos' loop, the lane tree) is a few percent at 16K; OpenMP/Threads
// spaces still get 4096 indices to balance at 2^26 elements. Same value as openmp's.
inline constexpr std::size_t host_chunk_elements = 16384;
// Device: at most this many indices (threads), each striding through the input: enough
// to fill a large GPU (132 SMs x 2048 resident threads on an H200) several times over.
// Not yet measured with a CUDA-enabled Kokkos (none was at hand); the fold itself was
// checked on an H200 (nvcc, device code) against seq.
inline constexpr std::size_t device_max_threads = std::size_t(1) << 20;
// Device: at least this many elements per thread before more threads are used.
inline constexpr std::size_t device_min_elements_per_thread = 16;
} // namespace tuning

namespace detail {

template <class R, class View>
struct chunk_functor {
    View data;
    R reducer;
    std::size_t n;
    std::size_t chunk;
    bool avx2;
    // Host execution spaces only (see run()), so a host function: lane_fold is host code.
    void operator()(std::int64_t c, typename R::accumulator_type& acc) const {
        const std::size_t begin = static_cast<std::size_t>(c) * chunk;
        const std::size_t end = n - begin > chunk ? begin + chunk : n;
        acc = R::combine(acc, ::preduce::detail::host_fold(reducer, data.data(), begin, end, avx2));
    }
};

template <class R, class View>
struct strided_functor {
    View data;
    R reducer;
    std::size_t n;
    std::size_t stride;
    KOKKOS_INLINE_FUNCTION void operator()(std::int64_t t, typename R::accumulator_type& acc) const {
        acc = R::combine(acc, strided_fold(reducer, data.data(), static_cast<std::size_t>(t), stride, n));
    }
};

template <class T, class MemSpace>
using unmanaged_view = Kokkos::View<const T*, MemSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

// 64-bit indices: Kokkos' default index type on CUDA is 32-bit and wraps past 2^32.
template <class ExecSpace>
using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;

template <class ExecSpace, class R, class View>
typename R::accumulator_type run(const View& view, std::size_t n, const R& reducer) {
    typename R::accumulator_type acc = R::identity();
    if constexpr (is_host_space<ExecSpace>) {
        const std::size_t chunk = tuning::host_chunk_elements;
        const auto chunks = static_cast<std::int64_t>(n / chunk + (n % chunk != 0));
        Kokkos::parallel_reduce("preduce::kokkos::reduce", policy<ExecSpace>(0, chunks),
                                chunk_functor<R, View>{view, reducer, n, chunk, ::preduce::detail::use_avx2()},
                                make_reducer<R>(acc));
    } else {
        std::size_t threads = n / tuning::device_min_elements_per_thread + 1;
        if (threads > tuning::device_max_threads) threads = tuning::device_max_threads;
        Kokkos::parallel_reduce("preduce::kokkos::reduce", policy<ExecSpace>(0, static_cast<std::int64_t>(threads)),
                                strided_functor<R, View>{view, reducer, n, threads}, make_reducer<R>(acc));
    }
    return acc;
}

inline const char* memory_name(memory_kind k) {
    switch (k) {
    case memory_kind::host: return "host";
    case memory_kind::managed: return "CUDA managed";
    case memory_kind::device: return "CUDA device";
    }
    return "unknown";
}

template <class R>
typename R::accumulator_type reduce_accumulator(const typename R::value_type* data, std::size_t n, const R& reducer) {
    using T = typename R::value_type;
    using ExecSpace = execution_space;
    using MemSpace = typename ExecSpace::memory_space;
    const memory_kind where = locate(data);
    const auto lock = acquire();
    if constexpr (is_host_space<ExecSpace>) {
        if (where == memory_kind::device)
            throw invalid_argument(std::string("preduce::reduce(kokkos): data points to ") + memory_name(where) +
                                   " memory, but this Kokkos runs on " + ExecSpace::name() +
                                   " (host only); copy the data to host memory, use backend::cuda, or build "
                                   "preduce against a Kokkos with CUDA enabled (-DKokkos_ROOT=...)");
        return run<ExecSpace>(unmanaged_view<T, Kokkos::HostSpace>(data, n), n, reducer);
    } else {
        if (where != memory_kind::host)  // device or managed: the device reads it where it is
            return run<ExecSpace>(unmanaged_view<T, MemSpace>(data, n), n, reducer);
        Kokkos::View<T*, MemSpace> copy(Kokkos::view_alloc(Kokkos::WithoutInitializing, "preduce::kokkos input"), n);
        Kokkos::deep_copy(copy, unmanaged_view<T, Kokkos::HostSpace>(data, n));
        return run<ExecSpace>(unmanaged_view<T, MemSpace>(copy.data(), n), n, reducer);
    }
}

} // namespace detail

// Reduces data[0, n) with reducer on Kokkos::DefaultExecutionSpace. options are not used:
// Kokkos fixes its thread count at initialization (KOKKOS_NUM_THREADS / OMP_NUM_THREADS,
// or --kokkos-num-threads when the application initializes it).
template <class R>
typename R::result_type reduce(const typename R::value_type* data, std::size_t n, const R& reducer,
                               const options& = {}) {
    if (n == 0) return reducer.finish(R::identity());  // explicit empty path: Kokkos is not even started
    if (data == nullptr) throw invalid_argument("preduce::kokkos::reduce: data is null but n > 0");
    try {
        return reducer.finish(detail::reduce_accumulator(data, n, reducer));
    } catch (const error&) {
        throw;
    } catch (const std::bad_alloc& e) {  // Kokkos 4's RawMemoryAllocationFailure is one
        throw out_of_memory(std::string("preduce::reduce(kokkos): out of memory in ") + execution_space::name() +
                            " (" + e.what() + ")");
    } catch (const std::exception& e) {  // Kokkos reports failures as std::runtime_error
        throw device_error(std::string("preduce::reduce(kokkos): Kokkos failed: ") + e.what());
    }
}

} // namespace preduce::kokkos
