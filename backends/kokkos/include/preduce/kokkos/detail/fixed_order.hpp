#pragma once
// precision::deterministic and precision::compensated on Kokkos: the one evaluation order
// of preduce/detail/algorithm/fixed_order/order.hpp. Kokkos computes the block values (steps 1-3) in a
// parallel_for, one index per 4096-element block, each written to its own slot; the host
// then runs the block tree (step 4) and the final rounding. The block value is a function
// of the block's elements alone, so the result has the bits of fixed_order::reduce_serial however
// Kokkos schedules the blocks.
//
//  - host execution spaces: each index calls host_simd's block_values, the SIMD form of the
//    host reference fixed_order::block_value (same bits).
//  - device execution spaces: fixed_order::block_value itself, in device code (its additions are
//    __fadd_rn / __dadd_rn there, never fused with a product of lift()), into a device
//    View that is copied back. Correct, not tuned (one thread per block, 32 lanes in
//    registers).
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/host_simd/kernels.hpp"
#include "preduce/kokkos/detail/space.hpp"
#include "preduce/kokkos/detail/stage.hpp"
#include "preduce/precision.hpp"
#include "preduce/source.hpp"

namespace preduce::kokkos::detail {

namespace fixed_order = ::preduce::detail::fixed_order;

// Host execution spaces: writes straight into host memory.
template <precision P, class R>
struct fixed_order_host_functor {
    source_t<R> src;
    R reducer;
    std::size_t n;
    fixed_order::value_t<P, typename R::accumulator_type>* out;
    bool avx2;
    // The SIMD version of fixed_order::block_value (host_simd/fixed_order_blocks.hpp): same bits.
    void operator()(std::int64_t b) const {
        const auto i = static_cast<std::size_t>(b);
        ::preduce::host_simd::block_values<P>(reducer, src, n, i, i + 1, out, avx2);
    }
};

// Device execution spaces: into device memory. The functor holds the View's raw pointer,
// not the View: with Kokkos 4.6.99 built by nvcc 13 in C++20 mode, a View held by a functor
// reaches the kernel with its extents and the members after it wrong, although both sides
// agree on the sizes (scripts/kokkos/view_layout.cpp shows it).
template <precision P, class R>
struct fixed_order_device_functor {
    source_t<R> src;
    R reducer;
    std::size_t n;
    fixed_order::value_t<P, typename R::accumulator_type>* out;
    KOKKOS_INLINE_FUNCTION void operator()(std::int64_t b) const {
        out[b] = fixed_order::block_value<P>(reducer, src, n, static_cast<std::size_t>(b));
    }
};

// The fixed-order result of src[0, n), n > 0, src readable from ExecSpace.
template <precision P, class ExecSpace, class R>
typename R::result_type run_fixed_order(source_t<R> src, std::size_t n, const R& reducer) {
    using A = typename R::accumulator_type;
    using V = fixed_order::value_t<P, A>;
    const std::size_t m = fixed_order::block_count(n);
    std::vector<V> v(m);
    if constexpr (is_host_space<ExecSpace>) {
        Kokkos::parallel_for("preduce::kokkos::reduce(fixed order)", policy<ExecSpace>(0, static_cast<std::int64_t>(m)),
                             fixed_order_host_functor<P, R>{src, reducer, n, v.data(), ::preduce::host_simd::use_avx2()});
        Kokkos::fence();
    } else {
        const auto blocks = allocate<V, typename ExecSpace::memory_space>(m, "preduce::kokkos block values");
        Kokkos::parallel_for("preduce::kokkos::reduce(fixed order)", policy<ExecSpace>(0, static_cast<std::int64_t>(m)),
                             fixed_order_device_functor<P, R>{src, reducer, n, blocks.data()});
        Kokkos::deep_copy(Kokkos::View<V*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(v.data(), m),
                          blocks);
    }
    return fixed_order::finish_blocks<P>(reducer, v);
}

} // namespace preduce::kokkos::detail
