#pragma once
// precision::deterministic and precision::compensated on Kokkos: the one evaluation order
// of preduce/detail/algorithm/fixed_order/order.hpp. The block value is a function of the
// block's elements alone and the tree over blocks is fixed, so the result has the bits of
// fixed_order::reduce_serial however Kokkos schedules the work.
//
//  - host execution spaces: a parallel_for, one index per 4096-element block, each calling
//    host_simd's block_values (the SIMD form of fixed_order::block_value, same bits) into its
//    own slot; the host then runs the block tree and the final rounding.
//  - device execution spaces: the whole array as one segment of device_segments.hpp, whose
//    teams of warps compute the block values (lane j of a block on thread j of a warp) and
//    the block tree on the device (its additions are __fadd_rn / __dadd_rn there, never
//    fused with a product of lift()); one result is copied back.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/host_simd/kernels.hpp"
#include "preduce/kokkos/detail/device_segments.hpp"
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

// The fixed-order result of src[0, n), n > 0, src readable from ExecSpace.
template <precision P, class ExecSpace, class R>
typename R::result_type run_fixed_order(source_t<R> src, std::size_t n, const R& reducer) {
    using A = typename R::accumulator_type;
    using V = fixed_order::value_t<P, A>;
    if constexpr (is_host_space<ExecSpace>) {
        const std::size_t m = fixed_order::block_count(n);
        std::vector<V> v(m);
        Kokkos::parallel_for("preduce::kokkos::reduce(fixed order)", policy<ExecSpace>(0, static_cast<std::int64_t>(m)),
                             fixed_order_host_functor<P, R>{src, reducer, n, v.data(), ::preduce::host_simd::use_avx2()});
        Kokkos::fence();
        return fixed_order::finish_blocks<P>(reducer, v);
    } else {
        using Out = typename R::result_type;
        ::preduce::detail::segment_layout whole;
        whole.form = ::preduce::detail::segment_form::fixed;
        whole.count = 1;
        whole.size = n;
        using mem = typename ExecSpace::memory_space;
        auto* result = reinterpret_cast<Out*>(workspace<mem, results_use>(sizeof(Out)));
        device_segments<P, ExecSpace>(reducer, src, n, whole, result);
        Out out;
        Kokkos::deep_copy(Kokkos::View<Out*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(&out, 1),
                          Kokkos::View<const Out*, mem, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(result, 1));
        return out;
    }
}

} // namespace preduce::kokkos::detail
