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
#include <vector>

#include "preduce/preduce.hpp"
#include "oracle/compare.hpp"
#include "support/data.hpp"
#include "oracle/oracle.hpp"
#include "support/under_test.hpp"

namespace preduce::test {

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

template <class T>
void check_moments(std::span<const T> x, const options& opts) {
    const auto got = run(x, preduce::moments, opts);
    const double got_mean = run(x, preduce::mean, opts);
    const double got_var = run(x, preduce::variance, opts);
    const auto ref = oracle::moments_of(x);
    INFO("moments got count " << got.count << " mean " << show(got.mean) << " variance " << show(got.variance())
                              << "; mean op " << show(got_mean) << ", variance op " << show(got_var)
                              << "; expected mean " << show(static_cast<double>(ref.mean)) << " variance "
                              << show(static_cast<double>(ref.variance)));
    CHECK(got.count == x.size());
    if (x.empty()) {
        CHECK(std::isnan(got.mean));
        CHECK(std::isnan(got.variance()));
        CHECK(std::isnan(got_mean));
        CHECK(std::isnan(got_var));
        return;
    }
    // Arrays, not braced lists: nvcc (Kokkos on CUDA builds every file with it) mistranslates
    // a range-for over a braced list in a template.
    const double means[] = {got.mean, got_mean};
    for (const double mean : means) {
        if (!std::isfinite(ref.mean)) CHECK(same(mean, static_cast<double>(ref.mean)));
        else CHECK(std::fabs(mean - ref.mean) <= oracle::mean_tolerance(ref));
    }
    const double variances[] = {got.variance(), got_var};
    for (const double var : variances) {
        if (!std::isfinite(ref.mean)) CHECK(std::isnan(var));
        else if (std::isfinite(ref.mean_square)) CHECK(std::fabs(var - ref.variance) <= oracle::variance_tolerance(ref));
    }
}

// sumsq, asum and dot against the exact sums of their terms; integers wrap like sum.
template <class T>
void check_transforms(std::span<const T> x, const options& opts) {
    const std::vector<T> y(x.rbegin(), x.rend());  // a second input: x reversed
    const auto ys = std::span<const T>(y);
    const std::size_t n = x.size();
    const auto got_sumsq = run(x, preduce::sumsq, opts);
    const auto got_asum = run(x, preduce::asum, opts);
    const auto got_dot = run2(x, ys, preduce::dot, opts);
    INFO("sumsq " << show(got_sumsq) << " asum " << show(got_asum) << " dot " << show(got_dot));
    if constexpr (std::is_floating_point_v<T>) {
        using L = long double;
        constexpr L u = std::numeric_limits<T>::epsilon() / 2;
        const auto close = [](T got, const oracle::float_sum& ref, const char* what) {
            INFO(what << ": exact " << show(static_cast<double>(ref.exact)) << ", bound " << static_cast<double>(ref.bound));
            const T rounded = static_cast<T>(ref.exact);
            if (std::isnan(ref.exact)) CHECK(std::isnan(got));
            else if (std::isinf(rounded)) CHECK(got == rounded);
            else CHECK(std::fabs(static_cast<L>(got) - ref.exact) <= ref.bound);
        };
        close(got_sumsq, oracle::lifted_sum_with_bound<T>(n, [&](std::size_t i) { return L(x[i]) * L(x[i]); }, u), "sumsq");
        close(got_asum, oracle::lifted_sum_with_bound<T>(n, [&](std::size_t i) { return std::fabs(L(x[i])); }, u), "asum");
        close(got_dot, oracle::lifted_sum_with_bound<T>(n, [&](std::size_t i) { return L(x[i]) * L(y[i]); }, u), "dot");
        if (n > 0 && !std::isnan(got_asum)) CHECK(!std::signbit(got_asum));
    } else {
        CHECK(got_sumsq == oracle::wrapped_sumsq(x));
        CHECK(got_asum == oracle::wrapped_asum(x));
        CHECK(got_dot == oracle::wrapped_dot(x, ys));
        CHECK(got_sumsq == reduce(backend::seq, x.data(), n, preduce::sumsq));
    }
    check_moments<T>(x, opts);
}

// nansum and nanmax (NumPy's): the non-NaN elements' exact sum within Higham's bound (a NaN
// counts as +0.0), and their maximum, NaN where there is none; integers: sum and max.
template <class T>
void check_nan_ignoring(std::span<const T> x, const options& opts) {
    const auto got_sum = run(x, preduce::nansum, opts);
    const auto got_max = run(x, preduce::nanmax, opts);
    std::vector<T> numbers;
    for (const T v : x)
        if (!oracle::is_nan(v)) numbers.push_back(v);
    const std::span<const T> kept(numbers);
    INFO("nansum " << show(got_sum) << " nanmax " << show(got_max) << "; " << numbers.size() << " of " << x.size()
                   << " elements are numbers");
    if constexpr (std::is_floating_point_v<T>) {
        check_float_sum<T>(got_sum, kept, std::numeric_limits<T>::epsilon() / 2, "nansum");
        if (numbers.empty()) CHECK(oracle::is_nan(got_max));
        else CHECK(same(got_max, oracle::arg_extremum<T, true>(kept).value));
    } else {
        CHECK(got_sum == oracle::wrapped_sum<T>(x));
        CHECK(same(got_max, oracle::arg_extremum<T, true>(x).value));
    }
    CHECK(same(got_max, reduce(backend::seq, x.data(), x.size(), preduce::nanmax)));
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
            const auto ref = oracle::prod_with_bound(x, u);
            INFO("prod got " << show(got) << ", long double " << static_cast<double>(ref.exact));
            CHECK(std::fabs(static_cast<long double>(got) - ref.exact) <= ref.bound);
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

    // minmax: both extremes in one pass, exactly min's and max's answers
    const auto mm = on(preduce::minmax);
    CHECK(same(mm.min, amin.value));
    CHECK(same(mm.max, amax.value));

    // sum and count_if fused into one pass
    if (!oracle::is_nan(pivot)) {
        const auto [fused_sum, fused_count] = on(fused(preduce::sum, count_if(greater(pivot))));
        CHECK(fused_count == count([&](T v) { return v > pivot; }));
        if constexpr (is_float) check_float_sum<T>(fused_sum, x, u, "fused sum");
        else CHECK(fused_sum == oracle::wrapped_sum<T>(x));
    }

    check_transforms<T>(x, opts);
    check_nan_ignoring<T>(x, opts);
}

} // namespace preduce::test
