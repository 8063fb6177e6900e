#include "reduce_body.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "checks.hpp"
#include "fuzz_case.hpp"
#include "narrow_body.hpp"
#include "thresholds.hpp"
#include "values.hpp"

namespace preduce_fuzz {

namespace {

// ---- count_if ----------------------------------------------------------------------------

// count_if (or fused(sum, count_if)) with thresholds of type U.
template <class T, class U>
void check_count(const subject<T>& s) {
    using K = preduce::predicate_kind;
    const fuzz_case& c = s.c;
    const K kind = c.predicate;
    const U a = pick_threshold<U>(s.x, c.select_a), b = pick_threshold<U>(s.x, c.select_b);
    const std::optional<T> ta = exactly<T>(a), tb = exactly<T>(b);
    bool refused = false;
    if (kind != K::is_nan) refused = !ta || (kind == K::in_range && (!tb || *tb < *ta));
    const std::uint64_t want = refused ? 0 : count_matching(s.x, kind, ta.value_or(T{}), tb.value_or(T{}),
                                                            [](T v) { return oracle::is_nan(v); });
    const auto with_spec = [&](auto spec) {
        const auto pred = preduce::count_if(spec);
        const std::size_t n = s.n();
        if (c.operation == op::count_if) {
            const auto call = [&](backend be) { return preduce::reduce(be, s.px, n, pred, s.opts); };
            on_every_backend(c, s.refusals(false, refused ? "count_if" : nullptr), call,
                             [&](backend be, std::uint64_t got) { expect_same(c, be, got, want, "count"); });
            return;
        }
        // fused(sum, count_if): the pack's parts obey the rules of each op alone.
        const auto call = [&](backend be) { return preduce::reduce(be, s.px, n, preduce::fused(preduce::sum, pred), s.opts); };
        const bool float_refuses_precision = std::is_floating_point_v<T>;  // a fused float sum is not a plain sum
        const auto refusals = s.refusals(float_refuses_precision, refused ? "count_if" : nullptr);
        if constexpr (std::is_floating_point_v<T>) {
            const auto rules = rules_for<T>(n, [&](std::size_t i) { return s.x[i]; },
                                            oracle::sum_with_bound(s.xs(), unit_roundoff<T>));
            on_every_backend(c, refusals, call, [&](backend be, const auto& got) {
                expect_same(c, be, preduce::get<1>(got), want, "fused count");
                if (const std::string e = judge_sum(preduce::get<0>(got), rules); !e.empty())
                    fail(c, be, "fused sum " + show(preduce::get<0>(got)) + ": " + e);
            });
        } else {
            const T want_sum = oracle::wrapped_sum<T>(s.xs());
            on_every_backend(c, refusals, call, [&](backend be, const auto& got) {
                expect_same(c, be, preduce::get<1>(got), want, "fused count");
                expect_same(c, be, preduce::get<0>(got), want_sum, "fused sum");
            });
        }
    };
    if (kind == K::is_nan) with_spec(preduce::is_nan());
    else with_spec(spec_of<T>(kind, a, b));
}

// ---- one case ----------------------------------------------------------------------------

template <class T>
void check_case(const fuzz_case& c) {
    constexpr bool is_float = std::is_floating_point_v<T>;
    const subject<T> s(c);
    const std::size_t n = s.n();
    const auto x = s.xs();
    const auto y = s.ys();
    const auto one = [&](const auto& op) { return [&, op](backend b) { return preduce::reduce(b, s.px, n, op, s.opts); }; };
    const auto exact = [&](auto call, auto want, const char* what) {
        on_every_backend(c, s.refusals(false), call, [&](backend b, const auto& got) { expect_same(c, b, got, want, what); });
    };
    using L = long double;

    switch (c.operation) {
    case op::sum:
        if constexpr (is_float)
            float_sum_case(s, one(preduce::sum), preduce::sum_reducer<T>{}, [&](std::size_t i) { return x[i]; },
                           oracle::sum_with_bound(x, unit_roundoff<T>));
        else exact(one(preduce::sum), oracle::wrapped_sum<T>(x), "sum");
        break;
    case op::wide_sum:
        if constexpr (is_float)
            float_sum_case(s, one(preduce::wide_sum), preduce::wide_sum_reducer<T>{},
                           [&](std::size_t i) { return static_cast<double>(x[i]); },
                           oracle::sum_with_bound(x, unit_roundoff<double>));
        else exact(one(preduce::wide_sum), oracle::wrapped_sum<preduce::wide_t<T>>(x), "wide_sum");
        break;
    case op::sumsq:
        if constexpr (is_float)
            float_sum_case(s, one(preduce::sumsq), preduce::sumsq_reducer<T>{}, [&](std::size_t i) { return x[i] * x[i]; },
                           oracle::lifted_sum_with_bound<T>(n, [&](std::size_t i) { return L(x[i]) * L(x[i]); },
                                                            unit_roundoff<T>));
        else exact(one(preduce::sumsq), oracle::wrapped_sumsq(x), "sumsq");
        break;
    case op::asum:
        if constexpr (is_float)
            float_sum_case(s, one(preduce::asum), preduce::asum_reducer<T>{},
                           [&](std::size_t i) { return std::fabs(x[i]); },
                           oracle::lifted_sum_with_bound<T>(n, [&](std::size_t i) { return std::fabs(L(x[i])); },
                                                            unit_roundoff<T>));
        else exact(one(preduce::asum), oracle::wrapped_asum(x), "asum");
        break;
    case op::dot: {
        const auto call = [&](backend b) { return preduce::reduce(b, s.px, s.py, n, preduce::dot, s.opts); };
        if constexpr (is_float) {
            const auto rules = rules_for<T>(n, [&](std::size_t i) { return x[i] * y[i]; },
                                            oracle::lifted_sum_with_bound<T>(
                                                n, [&](std::size_t i) { return L(x[i]) * L(y[i]); }, unit_roundoff<T>));
            on_every_backend(c, s.refusals(false), call, [&](backend b, T got) {
                check_float_sum(c, b, got, rules, preduce::dot_reducer<T>{},
                                preduce::zip_source<T, T>{s.x.data(), s.y.data()}, n);
            });
        } else {
            exact(call, oracle::wrapped_dot(x, y), "dot");
        }
        break;
    }
    case op::prod:
        if constexpr (is_float)
            on_every_backend(c, s.refusals(true), one(preduce::prod),
                             [&](backend b, T got) { check_float_prod(c, b, got, x); });
        else exact(one(preduce::prod), oracle::wrapped_prod<T>(x), "prod");
        break;
    case op::min: exact(one(preduce::min), oracle::arg_extremum<T, false>(x).value, "min"); break;
    case op::max: exact(one(preduce::max), oracle::arg_extremum<T, true>(x).value, "max"); break;
    case op::argmin: exact(one(preduce::argmin), oracle::arg_extremum<T, false>(x), "argmin"); break;
    case op::argmax: exact(one(preduce::argmax), oracle::arg_extremum<T, true>(x), "argmax"); break;
    case op::minmax: {
        const T lo = oracle::arg_extremum<T, false>(x).value, hi = oracle::arg_extremum<T, true>(x).value;
        on_every_backend(c, s.refusals(false), one(preduce::minmax), [&](backend b, const auto& got) {
            expect_same(c, b, got.min, lo, "minmax.min");
            expect_same(c, b, got.max, hi, "minmax.max");
        });
        break;
    }
    case op::mean:
    case op::variance:
    case op::moments:
        moments_case(s, one, moments_rules_for(x));
        break;
    case op::count_if:
    case op::sum_count:
        switch (c.thresholds) {
        case threshold_type::element: check_count<T, T>(s); break;
        case threshold_type::f64: check_count<T, double>(s); break;
        case threshold_type::i64: check_count<T, std::int64_t>(s); break;
        case threshold_type::u64: check_count<T, std::uint64_t>(s); break;
        }
        break;
    }
}

} // namespace

void run_one(const std::uint8_t* data, std::size_t size) {
    const fuzz_case c = decode(std::span<const std::uint8_t>(data, size));
    static const bool verbose = std::getenv("PREDUCE_FUZZ_VERBOSE") != nullptr;  // what each input decodes to
    if (verbose) std::fprintf(stderr, "preduce-fuzz: %s\n", describe(c).c_str());
    switch (c.type) {
    case element::i32: check_case<std::int32_t>(c); break;
    case element::u32: check_case<std::uint32_t>(c); break;
    case element::i64: check_case<std::int64_t>(c); break;
    case element::u64: check_case<std::uint64_t>(c); break;
    case element::f32: check_case<float>(c); break;
    case element::f64: check_case<double>(c); break;
    case element::i8:
    case element::u8:
    case element::i16:
    case element::u16:
    case element::f16:
    case element::bf16: check_narrow_case(c); break;
    }
}

} // namespace preduce_fuzz
