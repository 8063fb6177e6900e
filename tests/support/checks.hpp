#pragma once
// check_every_op: runs every built-in op of the backend under test on one input and
// compares with the oracle; exact ops must also equal the seq reference bit for bit.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <type_traits>

#include "preduce/preduce.hpp"
#include "support/data.hpp"
#include "support/oracle.hpp"
#include "support/under_test.hpp"

namespace preduce::test {

// Same value and, for floats, same bits up to NaN payload (the library canonicalises
// NaN results, so any NaN must compare as NaN) and the sign of zero.
template <class T>
bool same(T a, T b) {
    if constexpr (std::is_floating_point_v<T>) {
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

template <class T, class Acc = T>
void check_float_sum(Acc got, std::span<const T> x, long double u, const char* what) {
    const auto ref = oracle::sum_with_bound(x, u);
    INFO(what << ": got " << show(got) << ", exact " << show(static_cast<double>(ref.exact)) << ", bound "
              << static_cast<double>(ref.bound));
    const Acc rounded = static_cast<Acc>(ref.exact);  // inf when the exact sum is beyond Acc's range
    if (std::isnan(ref.exact)) {
        CHECK(std::isnan(got));
    } else if (std::isinf(rounded)) {
        CHECK(got == rounded);  // data here are same-signed when they overflow: every order overflows
    } else {
        CHECK(std::fabs(static_cast<long double>(got) - ref.exact) <= ref.bound);
    }
}

// Every op on x, on backend b. Prod is checked only when the caller says the data keep
// the product finite and non-degenerate (see data.hpp's product_values).
template <class T>
void check_every_op(std::span<const T> x, bool check_prod = false, options opts = {}) {
    INFO("backend " << name(under_test()) << " (" << residency() << " memory)" << ", type " << detail::type_name<T>() << ", n " << x.size() << ", threads "
                    << opts.threads << ", seed " << seed());
    const auto on = [&](const auto& op) { return run(x, op, opts); };
    const auto seq = [&](const auto& op) { return reduce(backend::seq, x.data(), x.size(), op); };
    constexpr bool is_float = std::is_floating_point_v<T>;
    constexpr long double u = std::numeric_limits<T>::epsilon() / 2;

    // sum and wide_sum
    if constexpr (is_float) {
        check_float_sum<T>(on(preduce::sum), x, u, "sum");
        check_float_sum<T, double>(on(preduce::wide_sum), x, std::numeric_limits<double>::epsilon() / 2, "wide_sum");
    } else {
        const T got = on(preduce::sum);
        INFO("sum got " << show(got));
        CHECK(got == oracle::wrapped_sum<T>(x));
        CHECK(on(preduce::wide_sum) == oracle::wrapped_sum<wide_t<T>>(x));
    }

    if (check_prod) {
        const T got = on(preduce::prod);
        if constexpr (is_float) {
            long double p = 1;
            for (T v : x) p *= v;
            const long double k = x.empty() ? 0 : static_cast<long double>(x.size() - 1);
            const long double bound = (k * u * (1 + 2 * k * u) + x.size() * std::ldexp(1.0L, -63)) * std::fabs(p);
            INFO("prod got " << show(got) << ", long double " << static_cast<double>(p));
            CHECK(std::fabs(static_cast<long double>(got) - p) <= bound);
        } else {
            CHECK(got == oracle::wrapped_prod<T>(x));
            CHECK(same(got, seq(preduce::prod)));
        }
    }

    // min/max/argmin/argmax: exact, equal to the oracle and to seq
    const auto amin = oracle::arg_extremum<T, false>(x);
    const auto amax = oracle::arg_extremum<T, true>(x);
    const auto got_min = on(preduce::min);
    const auto got_max = on(preduce::max);
    const auto got_amin = on(preduce::argmin);
    const auto got_amax = on(preduce::argmax);
    INFO("min " << show(got_min) << " max " << show(got_max) << " argmin " << show(got_amin) << " argmax "
                << show(got_amax) << "; expected " << show(amin) << " " << show(amax));
    CHECK(same(got_min, amin.value));
    CHECK(same(got_max, amax.value));
    CHECK(same(got_amin, amin));
    CHECK(same(got_amax, amax));
    CHECK(same(got_amin, seq(preduce::argmin)));
    CHECK(same(got_amax, seq(preduce::argmax)));

    // count_if with a predicate of each shape
    const T pivot = x.empty() ? T(0) : x[x.size() / 2];
    const T lo = x.empty() ? T(0) : std::min(x.front(), x.back(), oracle::less<T>);
    const T hi = x.empty() ? T(1) : std::max(x.front(), x.back(), oracle::less<T>);
    const auto count = [&](auto pred) { return static_cast<std::uint64_t>(std::count_if(x.begin(), x.end(), pred)); };
    if (!oracle::is_nan(pivot)) {
        CHECK(on(count_if(greater(pivot))) == count([&](T v) { return v > pivot; }));
        CHECK(on(count_if(less_equal(pivot))) == count([&](T v) { return v <= pivot; }));
        CHECK(on(count_if(equal(pivot))) == count([&](T v) { return v == pivot; }));
        CHECK(on(count_if(not_equal(pivot))) == count([&](T v) { return v != pivot; }));
    }
    if (!oracle::is_nan(lo) && !oracle::is_nan(hi))
        CHECK(on(count_if(in_range(lo, hi))) == count([&](T v) { return lo <= v && v < hi; }));
    CHECK(on(count_if(is_nan())) == count([](T v) { return oracle::is_nan(v); }));
}

} // namespace preduce::test
