#pragma once
// How results are compared and printed, without Catch2: shared by the Catch2 checks
// (checks.hpp) and the fuzz body (fuzz/reduce/reduce_body.cpp), so both judge by one rule.
#include <cmath>
#include <cstdio>
#include <string>
#include <type_traits>

#include "preduce/fused.hpp"
#include "preduce/reducers.hpp"

namespace preduce::test {

// Same value and, for floats, same bits up to NaN payload (the library canonicalises
// NaN results, so any NaN must compare as NaN) and the sign of zero.
template <class T>
bool same(T a, T b) {
    if constexpr (detail::is_half_v<T>) {  // float16/bfloat16: by their widened values, the same rule
        return same(to_float(a), to_float(b));
    } else if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
        return a == b && std::signbit(a) == std::signbit(b);
    } else {
        return a == b;
    }
}

template <class T>
bool same(arg_result<T> a, arg_result<T> b) {
    return same(a.value, b.value) && a.index == b.index;
}

template <class T>
bool same(minmax_result<T> a, minmax_result<T> b) {
    return same(a.min, b.min) && same(a.max, b.max);
}

template <class T>
std::string show(T v) {
    if constexpr (std::is_floating_point_v<T>) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", static_cast<double>(v));
        return buf;
    } else {
        return std::to_string(v);
    }
}
template <class T>
std::string show(arg_result<T> r) {
    return "{" + show(r.value) + ", " + (r.index == no_index ? std::string("no_index") : std::to_string(r.index)) + "}";
}

} // namespace preduce::test
