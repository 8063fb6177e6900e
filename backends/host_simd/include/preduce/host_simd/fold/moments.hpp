#pragma once
// The fold of moments (count, mean, variance): an overload of lane_fold that reads L1-sized
// blocks twice (the two-pass formula) in SIMD lanes, in place of an update per element
// (Welford's), which costs two divisions an element.
#include <cstddef>

#include "preduce/host_simd/namespaces.hpp"
#include "preduce/detail/core/numeric.hpp"
#include "preduce/host_simd/fold/lanes.hpp"
#include "preduce/transforms.hpp"

namespace preduce::host_simd {

// moments: blocks small enough to stay in L1 are read twice, once for their mean and
// once for the squared deviations from it (the two-pass formula, the most accurate
// there is), and the blocks' moments are merged pairwise (Chan). Welford's update per
// element would cost two divisions per element.
template <class T>
detail::moments_acc lane_fold(const moments_reducer<T>&, const T* data, std::size_t begin, std::size_t end) {
    constexpr std::size_t block = 4096, L = 16;
    moments_acc acc{0.0, 0.0, 0.0};
    const auto welford = [&](std::size_t b, std::size_t e) {
        for (std::size_t k = b; k < e; ++k) acc = merge_moments(acc, {1.0, static_cast<double>(widen(data[k])), 0.0});
    };
    for (std::size_t b = begin; b < end; b += block) {
        const std::size_t e = end - b < block ? end : b + block;
        double s[L] = {};
        std::size_t i = b;
        for (; i + L <= e; i += L) {
            PREDUCE_PRAGMA_OMP_SIMD
            for (std::size_t j = 0; j < L; ++j) s[j] += static_cast<double>(widen(data[i + j]));
        }
        for (std::size_t j = 0; i + j < e; ++j) s[j] += static_cast<double>(widen(data[i + j]));
        for (std::size_t w = L / 2; w > 0; w /= 2)
            for (std::size_t j = 0; j < w; ++j) s[j] += s[j + w];
        const double len = static_cast<double>(e - b);
        const double mean = s[0] / len;
        if (!(mean - mean == 0.0)) {
            // An infinity, a NaN, or a block sum beyond double's range (elements near
            // DBL_MAX): Welford's update, which never forms the sum, decides.
            welford(b, e);
            continue;
        }
        // Second pass: deviations and their squares. The deviations' sum corrects the
        // rounding of the mean (the corrected two-pass formula of Chan, Golub and
        // LeVeque): constant data then get their own value as mean and variance 0.
        double q[L] = {}, c[L] = {};
        i = b;
        for (; i + L <= e; i += L) {
            PREDUCE_PRAGMA_OMP_SIMD
            for (std::size_t j = 0; j < L; ++j) {
                const double d = static_cast<double>(widen(data[i + j])) - mean;
                c[j] += d;
                q[j] += d * d;
            }
        }
        for (std::size_t j = 0; i + j < e; ++j) {
            const double d = static_cast<double>(widen(data[i + j])) - mean;
            c[j] += d;
            q[j] += d * d;
        }
        for (std::size_t w = L / 2; w > 0; w /= 2)
            for (std::size_t j = 0; j < w; ++j) {
                c[j] += c[j + w];
                q[j] += q[j + w];
            }
        if (!(q[0] - q[0] == 0.0)) {
            // Squared deviations beyond double's range (elements ~1e154 apart): the
            // correction below would form inf - inf, a NaN that the clamp would turn into a
            // variance of 0. Welford's update adds only non-negative terms: m2 is +inf.
            welford(b, e);
            continue;
        }
        const double m2 = q[0] - c[0] * (c[0] / len);
        acc = merge_moments(acc, {len, mean + c[0] / len, m2 > 0.0 ? m2 : 0.0});
    }
    return acc;
}

} // namespace preduce::host_simd
