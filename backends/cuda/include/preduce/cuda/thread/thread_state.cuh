#pragma once
// What one thread keeps while it folds its elements, for the commutative tile layers.
// By default that is the accumulator itself: add() lifts and combines. A reducer whose
// combine is costly per element may keep a cheaper running form instead, turned into an
// accumulator once per tile (end_tile) and at the end (result).
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "preduce/reducers.hpp"
#include "preduce/source.hpp"
#include "preduce/transforms.hpp"

namespace preduce::cuda::detail {

// Which block of how many a thread's block is, for the tile assignment of the thread layer:
// the launch's own grid by default; one job of a segmented launch is a grid of one.
struct grid_slot {
    std::size_t block, blocks;
};
__device__ __forceinline__ grid_slot this_grid() { return {blockIdx.x, gridDim.x}; }

template <class R>
struct thread_state {
    using A = typename R::accumulator_type;
    A acc;

    __device__ __forceinline__ thread_state(const source_t<R>&, std::size_t) : acc(R::identity()) {}
    __device__ __forceinline__ void add(const R& r, const typename R::value_type& x, std::size_t index) {
        acc = R::combine(acc, r.lift(x, index));
    }
    __device__ __forceinline__ void end_tile() {}
    __device__ __forceinline__ A result() { return acc; }
    // A running form that can fail (moments below) replays a tile's elements through
    // add_one; the plain accumulator never needs to, and these compile away.
    __device__ __forceinline__ bool tile_overflowed() const { return false; }
    __device__ __forceinline__ void redo_tile() {}
    __device__ __forceinline__ void add_one(const R& r, const typename R::value_type& x, std::size_t index) {
        add(r, x, index);
    }
};

// Sums of 8- and 16-bit integers: a tile's elements (4 vectors or 8 scalars a thread: at
// most 64 x 255 or 32 x 65535 in magnitude) are added in 32 bits, which they cannot
// overflow, and the tile's sum goes into the 64-bit accumulator once per tile: one 32-bit add
// per element where a 64-bit add takes two instructions. The total is the same exact sum.
template <class T>
    requires(std::is_integral_v<T> && sizeof(T) <= 2)
struct thread_state<sum_reducer<T>> {
    using R = sum_reducer<T>;
    using A = typename R::accumulator_type;
    using W = std::conditional_t<std::is_signed_v<T>, std::int32_t, std::uint32_t>;
    A acc = R::identity();
    W tile = 0;

    __device__ __forceinline__ thread_state(const T*, std::size_t) {}
    __device__ __forceinline__ void add(const R&, T x, std::size_t) { tile += static_cast<W>(x); }
    __device__ __forceinline__ void end_tile() {
        acc += static_cast<A>(static_cast<std::int64_t>(tile));  // sign-extended, then wrapped like the sum
        tile = 0;
    }
    __device__ __forceinline__ A result() {
        end_tile();
        return acc;
    }
    __device__ __forceinline__ bool tile_overflowed() const { return false; }
    __device__ __forceinline__ void redo_tile() {}
    __device__ __forceinline__ void add_one(const R& r, T x, std::size_t i) { acc = R::combine(acc, r.lift(x, i)); }
};

// Moments: Chan's merge of one element costs two double divisions, which makes mean and
// variance compute-bound. Per tile, a thread instead sums the deviations d = x - shift and
// their squares (a subtraction, an addition and an FMA per element) and merges the tile's
// {count, shift + mean(d), sum d^2 - count mean(d)^2} once. The shift is the mean of what
// the thread has merged so far (at first the input's first element), so the deviations
// stay of the size of the data's spread and the subtraction cancels no more than the
// pairwise merge would; constant data give deviations of exactly zero, hence variance 0.
// That keeps mean and variance at about the speed of a sum, where per-element merges run at
// less than half of it (docs/cuda-tuning.md).
template <class T>
struct thread_state<moments_reducer<T>> {
    using A = ::preduce::detail::moments_acc;
    A merged{0.0, 0.0, 0.0};
    double shift = 0.0, n = 0.0, s1 = 0.0, s2 = 0.0;

    __device__ __forceinline__ thread_state(const T* data, std::size_t count) {
        if (count > 0) keep_shift(static_cast<double>(::preduce::detail::widen(data[0])));
    }
    __device__ __forceinline__ void add(const moments_reducer<T>&, T x, std::size_t) {
        const double d = static_cast<double>(::preduce::detail::widen(x)) - shift;
        n += 1.0;
        s1 += d;
        s2 = fma(d, d, s2);
    }
    // A non-finite element, or deviations whose sum leaves double's range (data near
    // +-DBL_MAX), leave s1 inf or NaN, which would make the mean inf or NaN. Checked once
    // per tile, off the per-element path (a per-element branch costs mean measurable speed):
    // the tile is then redone with Chan's per-element merge, which never forms such a sum.
    // Squares that overflow with a finite s1 are fine: s2 = inf is the right m2.
    __device__ __forceinline__ bool tile_overflowed() const { return !(s1 - s1 == 0.0); }
    __device__ __forceinline__ void redo_tile() { n = s1 = s2 = 0.0; }
    __device__ __forceinline__ void add_one(const moments_reducer<T>&, T x, std::size_t) {
        merged = ::preduce::detail::merge_moments(merged, A{1.0, static_cast<double>(::preduce::detail::widen(x)), 0.0});
    }
    __device__ __forceinline__ void end_tile() {
        if (n == 0.0) return;
        const double dm = s1 / n;
        const double m2 = fma(-s1, dm, s2);  // rounding may dip below the true value, never below 0
        merged = ::preduce::detail::merge_moments(merged, A{n, shift + dm, m2 < 0.0 ? 0.0 : m2});
        n = s1 = s2 = 0.0;
        keep_shift(merged.mean);
    }
    __device__ __forceinline__ A result() {
        end_tile();
        return merged;
    }

private:
    // An infinite or NaN shift would turn every later deviation into NaN; such data make
    // the mean non-finite whatever the shift, so a finite shift is always safe.
    __device__ __forceinline__ void keep_shift(double s) {
        if (s - s == 0.0) shift = s;
    }
};

} // namespace preduce::cuda::detail
