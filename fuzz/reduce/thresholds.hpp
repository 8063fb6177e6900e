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

// ---- the narrow element types (8/16-bit integers, float16, bfloat16) ----------------------
// A threshold of another type than the element's, for narrow data: < 128 an element of w,
// the widened data (as pick_threshold), otherwise a value at or just beyond the edges of the
// narrow types (range, precision, subnormals), or one of pick_threshold's special values.
template <class U, class C>
U pick_narrow_threshold(const std::vector<C>& w, std::uint8_t select) {
    if (select < 128 && !w.empty()) return pick_threshold<U>(w, select);
    if constexpr (std::is_floating_point_v<U>) {
        using L = std::numeric_limits<double>;
        static const double s[] = {
            65504.0, 65505.0, 65519.99, 65520.0, -65504.0, -65536.0, 0x1p-24, 0x1p-25, 0x3p-25, 0x1p-14,
            0x1.ff8p-15,  // largest float16 subnormal
            0x1p-133, 0x1p-134, 0x1p-126, 0x1.fep127 /* bfloat16 max */, 0x1.ffp127, L::max(),
            1 + 0x1p-7, 1 + 0x1p-8, 1 + 0x1p-10, 1 + 0x1p-11, 0.1, 2049.0, 257.0, 16777216.0,
            127.0, 128.0, -128.0, -129.0, 255.0, 256.0, 32767.0, 32768.0, -32768.0, -32769.0, 65535.0, 65536.0,
            -0.0, 0.5, -1.0, L::quiet_NaN(), L::infinity(), -L::infinity()};
        return static_cast<U>(s[(select - 128u) % (sizeof s / sizeof s[0])]);
    } else {
        static const std::int64_t s[] = {127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 65535,
                                         65536, 2048, 2049, 65504, 65505, 65520, 256, 257, 16777216, 16777217,
                                         -1, 0, 1, std::numeric_limits<std::int64_t>::lowest(),
                                         std::numeric_limits<std::int64_t>::max()};
        return static_cast<U>(s[(select - 128u) % (sizeof s / sizeof s[0])]);  // modular for uint64
    }
}

// Whether u is exactly a value of the narrow element type T, and which: its value (as the
// long double the widened data compare with), or nullopt where preduce must refuse it.
// NaN never is (count_if refuses it whatever the type); an infinity is for 16-bit floats.
// A finite u is a 16-bit float when |u| <= the largest finite value and u is a multiple of
// the spacing at its binade, 2^(e - p) with p significand bits (11, 8), or, below the
// normal range, of the smallest subnormal (2^-24, 2^-133).
template <class T, class U>
std::optional<long double> narrow_exactly(U u) {
    const long double l = static_cast<long double>(u);  // exact for double, int64 and uint64
    if (std::isnan(l)) return std::nullopt;
    if constexpr (std::is_integral_v<T>) {
        if (!(l >= static_cast<long double>(std::numeric_limits<T>::lowest()) &&
              l <= static_cast<long double>(std::numeric_limits<T>::max())) ||
            std::trunc(l) != l)
            return std::nullopt;
        return l;
    } else {
        constexpr bool f16 = std::is_same_v<T, preduce::float16>;
        constexpr int p = f16 ? 11 : 8, min_exp = f16 ? -24 : -133;
        const long double max = f16 ? 65504.0L : 0x1.fep127L;
        if (std::isinf(l)) return l;
        if (std::fabs(l) > max) return std::nullopt;
        if (l == 0) return l;
        int e = 0;
        (void)std::frexp(std::fabs(l), &e);  // |l| = m 2^e, 0.5 <= m < 1
        const long double scaled = std::ldexp(std::fabs(l), -std::max(e - p, min_exp));
        if (std::trunc(scaled) != scaled) return std::nullopt;
        return l;
    }
}

} // namespace preduce_fuzz
