#pragma once
// count_if thresholds for the fuzz body: the value a caller might pass (of the element
// type or of another type), and, written independently of preduce's ops.hpp, whether it
// converts to the element type exactly; preduce must refuse it with invalid_argument
// exactly when it does not.
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "values.hpp"

namespace preduce_fuzz {

// The threshold value U a selector byte names: < 128 an element of x (converted to U,
// and for double sometimes moved half-way to the next integer), otherwise a special value.
template <class U, class T>
U pick_threshold(const std::vector<T>& x, std::uint8_t select) {
    if (select < 128 && !x.empty()) {
        const T v = x[(select * 2654435761u) % x.size()];
        if constexpr (std::is_same_v<U, T>) {
            return v;
        } else if constexpr (std::is_floating_point_v<U>) {
            return static_cast<U>(v) + ((select & 1) ? U(0.5) : U(0));
        } else if constexpr (std::is_integral_v<T>) {
            return static_cast<U>(v);  // modular, defined in C++20
        } else {
            const long double l = std::trunc(static_cast<long double>(v));
            if (l >= static_cast<long double>(std::numeric_limits<U>::lowest()) &&
                l <= static_cast<long double>(std::numeric_limits<U>::max()))
                return static_cast<U>(l);
            return U(select);
        }
    }
    if constexpr (std::is_same_v<U, T>) {
        const auto s = special_values<T>();
        return s[select % s.size()];
    } else if constexpr (std::is_floating_point_v<U>) {
        using L = std::numeric_limits<double>;
        static const double s[] = {L::quiet_NaN(), L::infinity(), -L::infinity(), 0.5, -0.5, 0x1p63, -0x1p63,
                                   0x1p64, 0x1p31, -0x1p31, 0x1p32, 1e300, -0.0, 16777217.0, 0.1, 1.0,
                                   L::min(), L::denorm_min(), 3.4028235677973366e38, 1e39};
        return s[select % (sizeof s / sizeof s[0])];
    } else {
        static const U s[] = {std::numeric_limits<U>::lowest(), std::numeric_limits<U>::max(), U(-1), U(0), U(1),
                              U(std::uint64_t{1} << 31), U(-(std::int64_t{1} << 31) - 1), U(16777217),
                              U(std::uint64_t{1} << 53 | 1), U(std::uint64_t{1} << 63), U(std::uint64_t{1} << 32)};
        return s[select % (sizeof s / sizeof s[0])];
    }
}

// u as a T when T represents it exactly; nullopt when preduce must refuse it.
template <class T, class U>
std::optional<T> exactly(U u) {
    using LT = std::numeric_limits<T>;
    if constexpr (std::is_floating_point_v<U>) {
        if (std::isnan(u)) return std::nullopt;
        if constexpr (std::is_floating_point_v<T>) {
            if (std::isinf(u)) return static_cast<T>(u);
            if (std::fabs(static_cast<long double>(u)) > static_cast<long double>(LT::max())) return std::nullopt;
            const T t = static_cast<T>(u);
            if (static_cast<U>(t) != u) return std::nullopt;
            return t;
        } else {
            const long double l = u;
            if (!(l >= static_cast<long double>(LT::lowest()) && l <= static_cast<long double>(LT::max())) ||
                std::trunc(l) != l)
                return std::nullopt;
            return static_cast<T>(l);
        }
    } else if constexpr (std::is_integral_v<T>) {
        if (!std::in_range<T>(u)) return std::nullopt;
        return static_cast<T>(u);
    } else {
        const T t = static_cast<T>(u);  // integer -> float rounds, never UB for these types
        if (static_cast<long double>(t) != static_cast<long double>(u)) return std::nullopt;
        return t;
    }
}

} // namespace preduce_fuzz
