#pragma once
// The fold of one range on the host (host_fold), which every host backend runs: independent
// SIMD lanes for commutative reducers, a plain left fold for the rest, and, on x86-64 builds
// below AVX2, the same fold compiled again for AVX2 and AVX-512 and picked at run time.
//   fold/lanes.hpp        the generic fold: lane_fold for any reducer, fused reducers too
//   fold/moments.hpp, fold/narrow_int_sum.hpp, fold/count.hpp, fold/arg.hpp,
//   fold/float_extrema.hpp
//                         lane_fold overloads for operations with a faster fold of their own
//   isa/x86_clones.hpp    the AVX2 and AVX-512 clones and the CPU checks
//   this file             host_fold and use_avx2, which choose between them
// host_fold and the clones call lane_fold by qualified name, which sees only the overloads
// declared before them: hence every fold file is included before the clones and host_fold.
#include <cstddef>

#include "preduce/host_simd/namespaces.hpp"
#include "preduce/host_simd/fold/lanes.hpp"
#include "preduce/host_simd/fold/moments.hpp"
#include "preduce/host_simd/fold/narrow_int_sum.hpp"
#include "preduce/host_simd/fold/count.hpp"
#include "preduce/host_simd/fold/arg.hpp"
#include "preduce/host_simd/fold/float_extrema.hpp"
#include "preduce/host_simd/isa/x86_clones.hpp"
#include "preduce/source.hpp"

namespace preduce::host_simd {

template <class R>
typename R::accumulator_type host_fold(const R& r, source_t<R> data, std::size_t begin, std::size_t end,
                                       [[maybe_unused]] bool avx2) {
#if defined(PREDUCE_HOST_AVX2_DISPATCH)
    if constexpr (lifts_over_float<R>)
        if (avx2 && cpu_has_avx512()) return lane_fold_avx512(r, data, begin, end);
    if (avx2) return lane_fold_avx2(r, data, begin, end);
#endif
    return ::preduce::host_simd::lane_fold(r, data, begin, end);
}

inline bool use_avx2() noexcept {
#if defined(PREDUCE_HOST_AVX2_DISPATCH)
    return cpu_has_avx2();
#else
    return false;
#endif
}

} // namespace preduce::host_simd
