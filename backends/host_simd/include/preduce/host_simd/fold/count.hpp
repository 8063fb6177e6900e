#pragma once
// The fold of count_if: an overload of lane_fold that switches on the predicate's run-time
// kind once per range and then counts in SIMD lanes (count_lanes), which a switch per element
// in the generic fold would keep scalar.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "preduce/host_simd/namespaces.hpp"
#include "preduce/detail/core/numeric.hpp"
#include "preduce/host_simd/fold/lanes.hpp"
#include "preduce/reducers.hpp"

namespace preduce::host_simd {

// count_if: the predicate's kind is a run-time value; switching on it per element (a
// jump table inside the loop) keeps the generic fold scalar. Switch once, then count
// with lane counters as wide as the element, so the compare mask and the counter add
// share vector lanes (4 x 32-bit per SSE2 register for float/int32). Exact: a sum of 0/1.
template <class T, class Pred>
std::uint64_t count_lanes(const T* data, std::size_t begin, std::size_t end, Pred pred) {
    using C = std::conditional_t<sizeof(T) >= 8, std::uint64_t, std::uint32_t>;
    constexpr std::size_t L = 128 / sizeof(T);
    constexpr std::size_t block = std::size_t{1} << 30;  // per-lane counts stay < 2^32
    std::uint64_t total = 0;
    std::size_t i = begin;
    while (end - i >= L) {
        const std::size_t span = (end - i) / L * L;
        const std::size_t stop = i + (span < block ? span : block);
        C cnt[L] = {};
        for (; i < stop; i += L) {
            PREDUCE_PRAGMA_OMP_SIMD
            for (std::size_t j = 0; j < L; ++j) cnt[j] += pred(data[i + j]) ? C(1) : C(0);
        }
        for (std::size_t j = 0; j < L; ++j) total += cnt[j];
    }
    for (; i < end; ++i) total += pred(data[i]) ? 1u : 0u;
    return total;
}

// Elements and thresholds compare by value, as predicate<T> does (16-bit floats widened).
template <class T>
std::uint64_t lane_fold(const count_reducer<T>& r, const T* data, std::size_t begin, std::size_t end) {
    const auto a = widen(r.pred.a), b = widen(r.pred.b);
    switch (r.pred.kind) {
    case predicate_kind::equal: return count_lanes(data, begin, end, [a](T x) { return widen(x) == a; });
    case predicate_kind::not_equal: return count_lanes(data, begin, end, [a](T x) { return widen(x) != a; });
    case predicate_kind::less: return count_lanes(data, begin, end, [a](T x) { return widen(x) < a; });
    case predicate_kind::less_equal: return count_lanes(data, begin, end, [a](T x) { return widen(x) <= a; });
    case predicate_kind::greater: return count_lanes(data, begin, end, [a](T x) { return widen(x) > a; });
    case predicate_kind::greater_equal: return count_lanes(data, begin, end, [a](T x) { return widen(x) >= a; });
    case predicate_kind::in_range:
        return count_lanes(data, begin, end, [a, b](T x) { return a <= widen(x) && widen(x) < b; });
    case predicate_kind::is_nan: return count_lanes(data, begin, end, [](T x) { return is_nan(x); });
    }
    return 0;
}

} // namespace preduce::host_simd
