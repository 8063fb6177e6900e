#pragma once
// Warp layer: a shuffle tree over the 32 lanes, for any trivially copyable accumulator
// (moved through the shuffle network 4 bytes at a time). The offsets grow (1, 2, 4, 8,
// 16), so after the step with offset d lane i holds lanes i .. i + 2d - 1 combined in lane
// order, and lane 0 ends with lanes 0..31 in order: when lane i's data precede lane i+1's
// (the ordered layout of thread_fold.cuh), the warp's result is the in-order fold that a
// non-commutative reducer needs. (Falling offsets would pair lane 0 with lane 16 first.)
// Commutative reducers run the same five shuffles, so one tree serves every reducer.
#include <cstring>

namespace preduce::cuda::detail {

template <class A>
__device__ __forceinline__ A shuffle_down(const A& x, int delta, int width = 32) {
    constexpr int words = (sizeof(A) + 3) / 4;
    unsigned w[words];
    memcpy(w, &x, sizeof(A));
#pragma unroll
    for (int i = 0; i < words; ++i) w[i] = __shfl_down_sync(0xffffffffu, w[i], delta, width);
    A r;
    memcpy(&r, w, sizeof(A));
    return r;
}

// Every lane of the warp must call it with a valid accumulator (identity if it had no data).
// Width < 32: each aligned group of Width lanes reduces on its own, the group's first lane
// ending with its lanes combined in lane order.
template <class R, int Width = 32>
__device__ __forceinline__ typename R::accumulator_type warp_reduce(typename R::accumulator_type x) {
#pragma unroll
    for (int delta = 1; delta < Width; delta *= 2) {
        const auto other = shuffle_down(x, delta, Width);
        // Lanes whose partner is past lane 31 get their own value back; lane 0's result
        // never depends on theirs (it reads lanes 2d apart after step d), so no bounds test.
        x = R::combine(x, other);
    }
    return x;
}

} // namespace preduce::cuda::detail
