#pragma once
// The fold of sums of 8- and 16-bit integers: an overload of lane_fold with lanes twice as
// wide as the element, which the vectoriser reaches in one widening step, and
// is_narrow_int_sum_v, by which the AVX2 clone (isa/x86_clones.hpp) also picks its own form.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "preduce/host_simd/namespaces.hpp"
#include "preduce/host_simd/fold/lanes.hpp"
#include "preduce/reducers.hpp"

namespace preduce::host_simd {

// Whether R is a sum of 8- or 16-bit integers (sum or wide_sum: both add in 64 bits).
template <class R>
inline constexpr bool is_narrow_int_sum_v = false;
template <class T>
    requires(std::is_integral_v<T> && sizeof(T) <= 2)
inline constexpr bool is_narrow_int_sum_v<sum_reducer<T>> = true;
template <class T>
    requires(std::is_integral_v<T> && sizeof(T) <= 2)
inline constexpr bool is_narrow_int_sum_v<wide_sum_reducer<T>> = true;

// Sums of 8- and 16-bit integers: lanes twice as wide as the element (16-bit lanes for
// bytes, 32-bit for 16-bit integers), which the vectoriser widens to in one step, added
// into 32-bit and then into the 64-bit total before any lane can overflow. A 64-bit lane
// per element would take three widening steps for bytes and hold a quarter as many
// elements per register. The total is the exact sum, as with 64-bit lanes throughout.
template <class T>
    requires(std::is_integral_v<T> && sizeof(T) < 4)
typename sum_reducer<T>::accumulator_type lane_fold(const sum_reducer<T>&, const T* data, std::size_t begin,
                                                    std::size_t end) {
    using A = typename sum_reducer<T>::accumulator_type;  // the unsigned 64-bit twin
    constexpr bool sign = std::is_signed_v<T>;
    using W = std::conditional_t<sizeof(T) == 1, std::conditional_t<sign, std::int16_t, std::uint16_t>,
                                 std::conditional_t<sign, std::int32_t, std::uint32_t>>;
    using D = std::conditional_t<sign, std::int32_t, std::uint32_t>;
    constexpr std::size_t L = 64;
    // Rounds a W lane takes without overflow (bytes: 255 * 128 < 2^15; 16-bit: 2^15 * 2^16
    // < 2^31 unsigned, 2^15 * 2^15 signed), and W flushes a D lane takes (bytes: 2^15 *
    // 2^15 < 2^31; for 16-bit elements W is D and one flush is all).
    constexpr std::size_t rounds = sizeof(T) == 1 ? 255 : std::size_t{1} << 15;
    constexpr std::size_t flushes = sizeof(T) == 1 ? std::size_t{1} << 15 : 1;
    A total = 0;
    std::size_t i = begin;
    while (end - i >= L) {
        D wide[L] = {};
        for (std::size_t f = 0; f < flushes && end - i >= L; ++f) {
            const std::size_t span = (end - i) / L;
            const std::size_t stop = i + L * (span < rounds ? span : rounds);
            W lane[L] = {};
            for (; i < stop; i += L) {
                prefetch_ahead(data, i, L * sizeof(T));
                PREDUCE_PRAGMA_OMP_SIMD
                for (std::size_t j = 0; j < L; ++j) lane[j] = static_cast<W>(lane[j] + static_cast<W>(data[i + j]));
            }
            PREDUCE_PRAGMA_OMP_SIMD
            for (std::size_t j = 0; j < L; ++j) wide[j] += static_cast<D>(lane[j]);
        }
        for (std::size_t j = 0; j < L; ++j) total += static_cast<A>(static_cast<std::int64_t>(wide[j]));
    }
    for (; i < end; ++i) total += static_cast<A>(static_cast<std::int64_t>(data[i]));
    return total;
}

} // namespace preduce::host_simd
