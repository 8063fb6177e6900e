#pragma once
// Warp layer: a shuffle tree over the 32 lanes, for any trivially copyable accumulator
// (moved through the shuffle network 4 bytes at a time). Lane 0 ends with the combine of
// all lanes, lower lanes always on the left, so the layer keeps operand order.
#include <cstring>

namespace preduce::cuda::detail {

template <class A>
__device__ __forceinline__ A shuffle_down(const A& x, int delta) {
    constexpr int words = (sizeof(A) + 3) / 4;
    unsigned w[words];
    memcpy(w, &x, sizeof(A));
#pragma unroll
    for (int i = 0; i < words; ++i) w[i] = __shfl_down_sync(0xffffffffu, w[i], delta);
    A r;
    memcpy(&r, w, sizeof(A));
    return r;
}

// Every lane of the warp must call it with a valid accumulator (identity if it had no data).
template <class R>
__device__ __forceinline__ typename R::accumulator_type warp_reduce(typename R::accumulator_type x) {
#pragma unroll
    for (int delta = 16; delta > 0; delta /= 2) {
        const auto other = shuffle_down(x, delta);
        // Lanes whose partner is past lane 31 get their own value back; their results are
        // never read (only lane 0's is), so no bounds test is needed.
        x = R::combine(x, other);
    }
    return x;
}

} // namespace preduce::cuda::detail
