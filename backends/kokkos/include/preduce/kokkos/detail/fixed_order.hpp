#pragma once
// precision::deterministic and precision::compensated on Kokkos: the one evaluation order
// of preduce/detail/deterministic.hpp. Kokkos computes the block values (steps 1-3) in a
// parallel_for, one index per 4096-element block, each written to its own slot; the host
// then runs the block tree (step 4) and the final rounding. The block value is a function
// of the block's elements alone, so the result has the bits of det::reduce_serial however
// Kokkos schedules the blocks.
//
//  - host execution spaces: each index calls det::host_block_values, the SIMD form of the
//    host reference det::block_value (same bits).
//  - device execution spaces: device_block_value below, the same loops in device code, into
//    a device View that is copied back. Correct, not tuned (one thread per block, 32 lanes
//    in registers). Caveat: a CUDA compiler contracts a * b + c into an FMA by default
//    (nvcc --fmad=true), so a reducer whose lift multiplies (sumsq, dot, a user transform)
//    may round its products differently on the device than on the host unless the code is
//    built with --fmad=false / -ffp-contract=off; the additions of the order themselves are
//    single IEEE additions (det::add / det::merge) in both places.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "preduce/detail/deterministic.hpp"
#include "preduce/detail/fixed_order_host.hpp"
#include "preduce/kokkos/detail/space.hpp"
#include "preduce/precision.hpp"
#include "preduce/source.hpp"

namespace preduce::kokkos::detail {

namespace det = ::preduce::detail::det;

// det::block_value in device code: same lanes, same order, same lane tree.
template <precision P, class R>
KOKKOS_INLINE_FUNCTION det::value_t<P, typename R::accumulator_type> device_block_value(const R& r, source_t<R> src,
                                                                                      std::size_t n, std::size_t b) {
    using A = typename R::accumulator_type;
    using V = det::value_t<P, A>;
    constexpr std::size_t L = det::lanes;
    V lane[L];
    for (std::size_t j = 0; j < L; ++j) lane[j] = det::zero<P, A>(R::identity());
    const std::size_t first = b * det::block;
    const std::size_t last = n - first < det::block ? n : first + det::block;
    std::size_t i = first;
    for (; i + L <= last; i += L)
        for (std::size_t j = 0; j < L; ++j) det::add<P, A>(lane[j], r.lift(src[i + j], i + j));
    for (std::size_t j = 0; i + j < last; ++j) det::add<P, A>(lane[j], r.lift(src[i + j], i + j));
    for (std::size_t w = L / 2; w > 0; w /= 2)
        for (std::size_t j = 0; j < w; ++j) lane[j] = det::merge<P, A>(lane[j], lane[j + w]);
    return lane[0];
}

// Host execution spaces: writes straight into host memory.
template <precision P, class R>
struct fixed_order_host_functor {
    source_t<R> src;
    R reducer;
    std::size_t n;
    det::value_t<P, typename R::accumulator_type>* out;
    bool avx2;
    // The SIMD version of det::block_value (detail/fixed_order_host.hpp): same bits.
    void operator()(std::int64_t b) const {
        const auto i = static_cast<std::size_t>(b);
        det::host_block_values<P>(reducer, src, n, i, i + 1, out, avx2);
    }
};

template <precision P, class R, class View>
struct fixed_order_device_functor {
    source_t<R> src;
    R reducer;
    std::size_t n;
    View out;
    KOKKOS_INLINE_FUNCTION void operator()(std::int64_t b) const {
        out(b) = device_block_value<P>(reducer, src, n, static_cast<std::size_t>(b));
    }
};

// The fixed-order result of src[0, n), n > 0, src readable from ExecSpace.
template <precision P, class ExecSpace, class R>
typename R::accumulator_type run_fixed_order(source_t<R> src, std::size_t n, const R& reducer) {
    using A = typename R::accumulator_type;
    using V = det::value_t<P, A>;
    const std::size_t m = det::block_count(n);
    std::vector<V> v(m);
    if constexpr (is_host_space<ExecSpace>) {
        Kokkos::parallel_for("preduce::kokkos::reduce(fixed order)", policy<ExecSpace>(0, static_cast<std::int64_t>(m)),
                             fixed_order_host_functor<P, R>{src, reducer, n, v.data(), ::preduce::detail::use_avx2()});
        Kokkos::fence();
    } else {
        using view_t = Kokkos::View<V*, typename ExecSpace::memory_space>;
        view_t blocks(Kokkos::view_alloc(Kokkos::WithoutInitializing, "preduce::kokkos block values"), m);
        Kokkos::parallel_for("preduce::kokkos::reduce(fixed order)", policy<ExecSpace>(0, static_cast<std::int64_t>(m)),
                             fixed_order_device_functor<P, R, view_t>{src, reducer, n, blocks});
        Kokkos::deep_copy(Kokkos::View<V*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(v.data(), m),
                          blocks);
    }
    return det::result<P, A>(det::block_tree<P, A>(v.data(), m, R::identity()));
}

} // namespace preduce::kokkos::detail
