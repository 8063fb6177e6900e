#pragma once
// The Kokkos backend: Kokkos::parallel_reduce over Kokkos::DefaultExecutionSpace. Each
// index of the 64-bit RangePolicy folds many elements (detail/fold.hpp); the partial
// results meet in a Kokkos reducer that equals R (detail/reducer.hpp). Reducers that are
// not commutative keep operand order through a parallel_for instead (detail/ordered.hpp).
// options::precision deterministic / compensated: a fixed order, the same bits as every
// other backend (detail/fixed_order.hpp).
// Works with Kokkos 3.4 (Debian's libtrilinos-kokkos-dev, Serial) through 5.x with
// OpenMP, Threads or CUDA.
//   preduce::kokkos::reduce(data, n, op[, options])   op: built-in, reducer or user operation
//   preduce::kokkos::reduce(x, y, n, op[, options])   two inputs side by side (dot, zip transforms)
//
// Memory: a host execution space reads the caller's arrays in place; CUDA device memory
// handed to it is refused (invalid_argument). A device execution space reads device and
// managed memory in place and copies host arrays to its memory first (detail/stage.hpp).
//
// Compile with Kokkos' compiler (nvcc_wrapper for CUDA) and link preduce::kokkos, which
// also provides the lifecycle (runtime.hpp).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <type_traits>

#include "preduce/detail/backend_contract/entry.hpp"
#include "preduce/kokkos/info.hpp"
#include "preduce/host_simd/kernels.hpp"
#include "preduce/errors.hpp"
#include "preduce/kokkos/detail/device_segments.hpp"
#include "preduce/kokkos/detail/fixed_order.hpp"
#include "preduce/kokkos/detail/fold.hpp"
#include "preduce/kokkos/detail/ordered.hpp"
#include "preduce/kokkos/detail/reducer.hpp"
#include "preduce/kokkos/detail/space.hpp"
#include "preduce/kokkos/detail/stage.hpp"
#include "preduce/kokkos/runtime.hpp"
#include "preduce/options.hpp"
#include "preduce/reducers.hpp"
#include "preduce/source.hpp"

namespace preduce::kokkos {

namespace tuning {
// Host: elements per parallel_reduce index: enough that the per-index cost (Kokkos' loop,
// the lane tree) is a few percent (docs/host-folds.md), few enough that the OpenMP and
// Threads spaces still get 4096 indices to balance at 2^26 elements. Same value as openmp's.
inline constexpr std::size_t host_chunk_elements = 16384;
// Non-commutative reducers, host: blocks of at least host_chunk_elements, at most this
// many per unit of the space's concurrency. More than one per thread, so that a thread
// the OS delays holds back less, and so that Serial runs the same merge of partial
// results as the threaded spaces (which the tests then cover).
inline constexpr std::size_t host_ordered_blocks_per_thread = 4;
// Non-commutative reducers, device: each thread folds one contiguous block of at least
// this many elements, into one of at most device_ordered_max_blocks partial results
// that the host folds in order: the cap bounds that serial tail (and the copy back) to
// tens of microseconds whatever the accumulator's size.
inline constexpr std::size_t device_ordered_min_elements = 256;
inline constexpr std::size_t device_ordered_max_blocks = std::size_t(1) << 15;
} // namespace tuning

namespace detail {

// Host execution spaces only (see run()), so a host function: the host kernels are host code.
template <class R>
struct chunk_functor {
    source_t<R> src;
    R reducer;
    std::size_t n;
    std::size_t chunk;
    bool avx2;
    void operator()(std::int64_t c, typename R::accumulator_type& acc) const {
        const std::size_t begin = static_cast<std::size_t>(c) * chunk;
        const std::size_t end = n - begin > chunk ? begin + chunk : n;
        acc = R::combine(acc, host_simd::kernels<R>::fold(reducer, src, begin, end, avx2));
    }
};

// Device execution spaces, commutative reducers: one element per index, the shape of a
// plain Kokkos parallel_reduce, so that Kokkos' own loop and block tree do the rest: the
// speed of parallel_reduce with Kokkos::Sum, where a fixed set of threads each striding
// through the input was slower (docs/host-folds.md).
template <class R>
struct element_functor {
    source_t<R> src;
    R reducer;
    KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, typename R::accumulator_type& acc) const {
        const auto k = static_cast<std::size_t>(i);
        acc = R::combine(acc, reducer.lift(src[k], k));
    }
};

inline std::size_t ceil_div(std::size_t a, std::size_t b) { return a / b + (a % b != 0); }

// src readable from ExecSpace, n > 0.
template <class ExecSpace, class R>
typename R::accumulator_type run(source_t<R> src, std::size_t n, const R& reducer) {
    if constexpr (!is_commutative_v<R>) {
        std::size_t blocks;
        if constexpr (is_host_space<ExecSpace>) {
            const auto threads = static_cast<std::size_t>(ExecSpace().concurrency());
            const std::size_t most = tuning::host_ordered_blocks_per_thread * (threads > 0 ? threads : 1);
            blocks = ceil_div(n, tuning::host_chunk_elements);
            if (blocks > most) blocks = most;
        } else {
            blocks = ceil_div(n, tuning::device_ordered_min_elements);
            if (blocks > tuning::device_ordered_max_blocks) blocks = tuning::device_ordered_max_blocks;
        }
        return ordered_fold<ExecSpace>(reducer, src, n, blocks);
    } else {
        typename R::accumulator_type acc = R::identity();
        if constexpr (is_host_space<ExecSpace>) {
            const std::size_t chunk = tuning::host_chunk_elements;
            Kokkos::parallel_reduce("preduce::kokkos::reduce",
                                    policy<ExecSpace>(0, static_cast<std::int64_t>(ceil_div(n, chunk))),
                                    chunk_functor<R>{src, reducer, n, chunk, ::preduce::host_simd::use_avx2()},
                                    make_reducer<R>(acc));
        } else {
            Kokkos::parallel_reduce("preduce::kokkos::reduce", policy<ExecSpace>(0, static_cast<std::int64_t>(n)),
                                    element_functor<R>{src, reducer}, make_reducer<R>(acc));
        }
        return acc;
    }
}

// Inside launch() (runtime.hpp): stages the input arrays where the execution space reads
// them (stage.hpp) and calls go(staged source).
template <class S, class Go>
auto with_staged(S src, std::size_t n, Go&& go) {
    return launch([&] {
        const auto in = stage_source<execution_space>(src, n);
        return go(in.get());
    });
}

} // namespace detail

// Reduces src[0, n) with reducer on Kokkos::DefaultExecutionSpace, in order P (the fast
// order, or the fixed order of precision::deterministic / compensated, fixed_order.hpp).
// options::threads is not used: Kokkos fixes its thread count at initialization
// (KOKKOS_NUM_THREADS / OMP_NUM_THREADS, or --kokkos-num-threads when the application
// initializes it).
template <precision P, class R>
typename R::result_type reduce_source(source_t<R> src, std::size_t n, const R& reducer, const options&) {
    try {
        return detail::with_staged(src, n, [&](source_t<R> s) -> typename R::result_type {
            if constexpr (P == precision::fast) return reducer.finish(detail::run<execution_space>(s, n, reducer));
            else return detail::run_fixed_order<P, execution_space>(s, n, reducer);
        });
    } catch (const error&) {
        throw;
    } catch (const std::bad_alloc& e) {  // Kokkos 4's RawMemoryAllocationFailure is one
        throw out_of_memory(std::string("preduce::reduce(kokkos): out of memory in ") + execution_space::name() +
                            " (" + e.what() + ")");
    } catch (const std::exception& e) {  // Kokkos reports failures as std::runtime_error
        throw device_error(std::string("preduce::reduce(kokkos): Kokkos failed: ") + e.what());
    }
}

// One result per segment (detail/algorithm/segment_layout.hpp). A host execution space runs
// host_simd/segmented_folds.hpp's tasks as a parallel_for; a device execution space computes
// every segment on the device (detail/device_segments.hpp), reading device and managed
// memory in place, copying host arrays to the device first, and writing results into device
// or managed memory in place or through the device into host memory.
namespace detail {
template <class Space>
void run_tasks(const void*, std::size_t count, host_simd::task_ref task) {
    Kokkos::parallel_for("preduce::kokkos::reduce_segments", policy<Space>(0, static_cast<std::int64_t>(count)),
                         [&](std::int64_t t) { task(static_cast<std::size_t>(t)); });
    Kokkos::fence();
}

template <precision P, class R>
void reduce_segments_on_device(const R& reducer, source_t<R> src, std::size_t n,
                               const ::preduce::detail::segment_layout& layout, typename R::result_type* out) {
    using Out = typename R::result_type;
    using mem = typename execution_space::memory_space;
    ::preduce::detail::segment_layout L = layout;
    std::optional<staged_array<execution_space, std::uint64_t>> offsets;
    if (L.form == ::preduce::detail::segment_form::offsets) {
        const memory_kind where = L.offsets == nullptr ? memory_kind::host : locate(L.offsets);
        if (where == memory_kind::device) check_device_offsets<execution_space>(L.offsets, L.count, n);
        else ::preduce::detail::check_offsets(L.offsets, L.count, n);
        offsets.emplace(L.offsets, L.count + 1, where, "offsets");
        L.offsets = offsets->get();
    }
    const auto data = stage_source<execution_space>(src, n);
    const memory_kind where_out = locate(out);
    if (where_out == memory_kind::device || where_out == memory_kind::managed) {
        device_segments<P, execution_space>(reducer, data.get(), n, L, out, layout.offsets);
    } else {
        auto* results = reinterpret_cast<Out*>(workspace<mem, results_use>(L.count * sizeof(Out)));
        device_segments<P, execution_space>(reducer, data.get(), n, L, results, layout.offsets);
        Kokkos::deep_copy(Kokkos::View<Out*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(out, L.count),
                          Kokkos::View<const Out*, mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(results, L.count));
    }
}
} // namespace detail

template <precision P, class R>
void reduce_segments_source(source_t<R> src, std::size_t n, const ::preduce::detail::segment_layout& layout,
                            const R& reducer, typename R::result_type* out, const options&) {
    if constexpr (is_host_space<execution_space>) {
        detail::require_host_memory(src, n, "data");
        detail::require_host_memory(out, layout.count, "output");
        if (layout.form == ::preduce::detail::segment_form::offsets) {
            detail::require_host_memory(layout.offsets, layout.count + 1, "offsets");
            ::preduce::detail::check_offsets(layout.offsets, layout.count, n);
        }
        launch([&] {
            const auto threads = static_cast<std::size_t>(execution_space().concurrency());
            host_simd::segments<P>(reducer, src, layout, out,
                                   host_simd::executor{threads > 0 ? threads : 1, nullptr, &detail::run_tasks<execution_space>});
        });
    } else {
        launch([&] { detail::reduce_segments_on_device<P>(reducer, src, n, layout, out); });
    }
}

PREDUCE_BACKEND_ENTRY_POINTS

} // namespace preduce::kokkos
