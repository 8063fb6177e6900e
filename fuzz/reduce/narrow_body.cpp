// The narrow element types against the shared semantics (README.md's table), judged on the
// widened values w: every 16-bit float as the float it stands for (decoded from its bits by
// values.hpp's half_value, not by the library's to_float), every 8/16-bit integer as an
// int64/uint64. The library's sums of these types are sums of exactly those values:
//  - sum, sumsq, asum, dot of 16-bit floats add float terms in float (wide_sum: in double),
//    so reduce_body's float-sum rules apply to w with float's unit roundoff, and under
//    deterministic/compensated the bits must be the fixed order's, run here serially with
//    the narrow reducer on the narrow data;
//  - the integer sums, products, sumsq, asum and dot wrap mod 2^64 only: the 64-bit
//    oracles on w;
//  - min, max, argmin, argmax, minmax are exact on the element type: the winner's index
//    from the oracle on w, and the result must be that element's bits (a NaN: the
//    canonical quiet NaN of the type; empty input: the identity);
//  - mean, variance, moments: double, of w;
//  - count_if compares w with the threshold's value; a threshold must be exactly a value
//    of the element type (thresholds.hpp's narrow_exactly), else invalid_argument.
#include "narrow_body.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "checks.hpp"
#include "fuzz_case.hpp"
#include "thresholds.hpp"
#include "values.hpp"

namespace preduce_fuzz {

namespace {

template <class T>
constexpr bool is_half = preduce::detail::is_half_v<T>;

// The widened type: float for 16-bit floats, 64 bits of the same signedness for integers.
template <class T>
using wide_of = std::conditional_t<is_half<T>, float, std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>;

template <class T>
std::string show_narrow(T v) {
    if constexpr (is_half<T>) {
        char buf[16];
        std::snprintf(buf, sizeof buf, " (0x%04x)", static_cast<unsigned>(v.bits));
        return show(half_value(v)) + buf;
    } else {
        return std::to_string(static_cast<long long>(v));
    }
}

template <class T>
bool same_bits(T a, T b) {
    if constexpr (is_half<T>) return a.bits == b.bits;
    else return a == b;
}

// The canonical quiet NaN of a 16-bit float (0x7e00, 0x7fc0) and the min/max identities
// (+-inf; for integers max and lowest): values.hpp's special values 0, 4 and 5.
template <class T>
T canonical_nan() {
    return special_values<T>()[0];
}
template <class T, bool Max>
T extremum_identity() {
    if constexpr (is_half<T>) return special_values<T>()[Max ? 5 : 4];
    else return Max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
}

// What min/argmin (Max false) or max/argmax must return: the index of the oracle's winner
// over w, and the bits of that element of x (a NaN as the canonical quiet NaN).
template <class T, bool Max>
preduce::arg_result<T> want_extremum(std::span<const T> x, std::span<const wide_of<T>> w) {
    if (x.empty()) return {extremum_identity<T, Max>(), preduce::no_index};
    const auto r = oracle::arg_extremum<wide_of<T>, Max>(w);
    if (r.index >= x.size()) std::abort();  // the oracle names an element of nonempty data
    if constexpr (is_half<T>)
        if (std::isnan(r.value)) return {canonical_nan<T>(), r.index};
    return {x[r.index], r.index};
}

template <class T>
void expect_element(const fuzz_case& c, backend b, T got, T want, const char* what) {
    if (!same_bits(got, want)) fail(c, b, std::string(what) + " " + show_narrow(got) + ", expected " + show_narrow(want));
}

template <class T>
void expect_arg(const fuzz_case& c, backend b, const preduce::arg_result<T>& got, const preduce::arg_result<T>& want,
                const char* what) {
    if (!same_bits(got.value, want.value) || got.index != want.index)
        fail(c, b, std::string(what) + " {" + show_narrow(got.value) + ", " + std::to_string(got.index) + "}, expected {" +
                       show_narrow(want.value) + ", " + std::to_string(want.index) + "}");
}

// The value a count_if threshold stands for, when preduce must accept it.
template <class T, class U>
std::optional<long double> threshold_value(U u) {
    if constexpr (std::is_same_v<U, T>) {
        if constexpr (is_half<T>) {
            const float v = half_value(u);
            if (std::isnan(v)) return std::nullopt;  // count_if refuses a NaN threshold
            return v;
        } else {
            return static_cast<long double>(u);
        }
    } else {
        return narrow_exactly<T>(u);
    }
}

// count_if (or fused(sum, count_if)) with thresholds of type U: the element type, double,
// int64 or uint64.
template <class T, class U>
void check_narrow_count(const subject<T>& s, const std::vector<wide_of<T>>& w) {
    using K = preduce::predicate_kind;
    using C = wide_of<T>;
    const fuzz_case& c = s.c;
    const K kind = c.predicate;
    U a{}, b{};
    if constexpr (std::is_same_v<U, T>) {
        a = pick_threshold<T>(s.x, c.select_a);
        b = pick_threshold<T>(s.x, c.select_b);
    } else {
        a = pick_narrow_threshold<U>(w, c.select_a);
        b = pick_narrow_threshold<U>(w, c.select_b);
    }
    const std::optional<long double> ta = threshold_value<T>(a), tb = threshold_value<T>(b);
    bool refused = false;
    if (kind != K::is_nan) refused = !ta || (kind == K::in_range && (!tb || *tb < *ta));
    // The widened values compared as long double, where every threshold is exact.
    std::vector<long double> lw(w.begin(), w.end());
    const std::uint64_t want = refused ? 0 : count_matching(lw, kind, ta.value_or(0.0L), tb.value_or(0.0L),
                                                            [](long double v) { return std::isnan(v); });
    const auto with_spec = [&](auto spec) {
        const auto pred = preduce::count_if(spec);
        const std::size_t n = s.n();
        if (c.operation == op::count_if) {
            const auto call = [&](backend be) { return preduce::reduce(be, s.px, n, pred, s.opts); };
            on_every_backend(c, s.refusals(false, refused ? "count_if" : nullptr), call,
                             [&](backend be, std::uint64_t got) { expect_same(c, be, got, want, "count"); });
            return;
        }
        // fused(sum, count_if): each part obeys the rules of its op alone; a fused float sum
        // is not a plain sum, so it refuses deterministic/compensated as for float data.
        const auto call = [&](backend be) { return preduce::reduce(be, s.px, n, preduce::fused(preduce::sum, pred), s.opts); };
        const auto refusals = s.refusals(is_half<T>, refused ? "count_if" : nullptr);
        if constexpr (is_half<T>) {
            const auto rules = rules_for<float>(n, [&](std::size_t i) { return w[i]; },
                                                oracle::sum_with_bound(std::span<const C>(w), unit_roundoff<float>));
            on_every_backend(c, refusals, call, [&](backend be, const auto& got) {
                expect_same(c, be, preduce::get<1>(got), want, "fused count");
                if (const std::string e = judge_sum(preduce::get<0>(got), rules); !e.empty())
                    fail(c, be, "fused sum " + show(preduce::get<0>(got)) + ": " + e);
            });
        } else {
            const C want_sum = oracle::wrapped_sum<C>(std::span<const C>(w));
            on_every_backend(c, refusals, call, [&](backend be, const auto& got) {
                expect_same(c, be, preduce::get<1>(got), want, "fused count");
                expect_same(c, be, preduce::get<0>(got), want_sum, "fused sum");
            });
        }
    };
    if (kind == K::is_nan) with_spec(preduce::is_nan());
    else with_spec(spec_of<T>(kind, a, b));
}

template <class T>
void check_narrow(const fuzz_case& c) {
    using C = wide_of<T>;
    using L = long double;
    const subject<T> s(c);
    const std::size_t n = s.n();
    // w and wy: x and y (x reversed, dot's second input) widened by the oracle's own rules.
    std::vector<C> w(n), wy(n);
    for (std::size_t i = 0; i < n; ++i) {
        if constexpr (is_half<T>) {
            w[i] = half_value(s.x[i]);
            // The library's widening must agree (NaN payloads aside: any NaN for a NaN).
            const float lib = preduce::to_float(s.x[i]);
            if (std::isnan(w[i]) ? !std::isnan(lib) : std::bit_cast<std::uint32_t>(lib) != std::bit_cast<std::uint32_t>(w[i]))
                fail(c, backend::seq, "preduce::to_float(" + show_narrow(s.x[i]) + ") is " + show(lib));
        } else {
            w[i] = static_cast<C>(s.x[i]);
        }
    }
    for (std::size_t i = 0; i < n; ++i) wy[i] = w[n - 1 - i];
    const std::span<const C> ws(w), wys(wy);
    const auto one = [&](const auto& op) { return [&, op](backend b) { return preduce::reduce(b, s.px, n, op, s.opts); }; };
    const auto exact = [&](auto call, auto want, const char* what) {
        on_every_backend(c, s.refusals(false), call, [&](backend b, const auto& got) { expect_same(c, b, got, want, what); });
    };
    // A float sum of 16-bit floats: float_sum_case's rules over the widened terms, and the
    // fixed order's bits with the narrow reducer on the narrow data.
    const auto half_sum = [&](auto call, const auto& reducer, auto term, const oracle::float_sum& ref) {
        using A = std::remove_cvref_t<decltype(call(backend::seq))>;
        const auto rules = rules_for<A>(n, term, ref);
        on_every_backend(c, s.refusals(false), call, [&](backend b, A got) {
            check_float_sum(c, b, got, rules, reducer, s.x.data(), n);
        });
    };

    switch (c.operation) {
    case op::sum:
        if constexpr (is_half<T>)
            half_sum(one(preduce::sum), preduce::sum_reducer<T>{}, [&](std::size_t i) { return w[i]; },
                     oracle::sum_with_bound(ws, unit_roundoff<float>));
        else exact(one(preduce::sum), oracle::wrapped_sum<C>(ws), "sum");
        break;
    case op::wide_sum:
        if constexpr (is_half<T>)
            half_sum(one(preduce::wide_sum), preduce::wide_sum_reducer<T>{},
                     [&](std::size_t i) { return static_cast<double>(w[i]); },
                     oracle::sum_with_bound(ws, unit_roundoff<double>));
        else exact(one(preduce::wide_sum), oracle::wrapped_sum<C>(ws), "wide_sum");
        break;
    case op::sumsq:
        if constexpr (is_half<T>)
            half_sum(one(preduce::sumsq), preduce::sumsq_reducer<T>{}, [&](std::size_t i) { return w[i] * w[i]; },
                     oracle::lifted_sum_with_bound<float>(n, [&](std::size_t i) { return L(w[i]) * L(w[i]); },
                                                          unit_roundoff<float>));
        else exact(one(preduce::sumsq), oracle::wrapped_sumsq(ws), "sumsq");
        break;
    case op::asum:
        if constexpr (is_half<T>)
            half_sum(one(preduce::asum), preduce::asum_reducer<T>{}, [&](std::size_t i) { return std::fabs(w[i]); },
                     oracle::lifted_sum_with_bound<float>(n, [&](std::size_t i) { return std::fabs(L(w[i])); },
                                                          unit_roundoff<float>));
        else exact(one(preduce::asum), oracle::wrapped_asum(ws), "asum");
        break;
    case op::dot: {
        const auto call = [&](backend b) { return preduce::reduce(b, s.px, s.py, n, preduce::dot, s.opts); };
        if constexpr (is_half<T>) {
            const auto rules = rules_for<float>(n, [&](std::size_t i) { return w[i] * wy[i]; },
                                                oracle::lifted_sum_with_bound<float>(
                                                    n, [&](std::size_t i) { return L(w[i]) * L(wy[i]); },
                                                    unit_roundoff<float>));
            on_every_backend(c, s.refusals(false), call, [&](backend b, float got) {
                check_float_sum(c, b, got, rules, preduce::dot_reducer<T>{},
                                preduce::zip_source<T, T>{s.x.data(), s.y.data()}, n);
            });
        } else {
            exact(call, oracle::wrapped_dot(ws, wys), "dot");
        }
        break;
    }
    case op::prod:
        if constexpr (is_half<T>)
            on_every_backend(c, s.refusals(true), one(preduce::prod),
                             [&](backend b, float got) { check_float_prod(c, b, got, ws); });
        else exact(one(preduce::prod), oracle::wrapped_prod<C>(ws), "prod");
        break;
    case op::min: {
        const T want = want_extremum<T, false>(s.xs(), ws).value;
        on_every_backend(c, s.refusals(false), one(preduce::min),
                         [&](backend b, T got) { expect_element(c, b, got, want, "min"); });
        break;
    }
    case op::max: {
        const T want = want_extremum<T, true>(s.xs(), ws).value;
        on_every_backend(c, s.refusals(false), one(preduce::max),
                         [&](backend b, T got) { expect_element(c, b, got, want, "max"); });
        break;
    }
    case op::argmin:
    case op::argmax: {
        const auto want = c.operation == op::argmin ? want_extremum<T, false>(s.xs(), ws)
                                                    : want_extremum<T, true>(s.xs(), ws);
        const auto check = [&](backend b, const preduce::arg_result<T>& got) {
            expect_arg(c, b, got, want, name(c.operation));
        };
        if (c.operation == op::argmin) on_every_backend(c, s.refusals(false), one(preduce::argmin), check);
        else on_every_backend(c, s.refusals(false), one(preduce::argmax), check);
        break;
    }
    case op::minmax: {
        const T lo = want_extremum<T, false>(s.xs(), ws).value, hi = want_extremum<T, true>(s.xs(), ws).value;
        on_every_backend(c, s.refusals(false), one(preduce::minmax), [&](backend b, const auto& got) {
            expect_element(c, b, got.min, lo, "minmax.min");
            expect_element(c, b, got.max, hi, "minmax.max");
        });
        break;
    }
    case op::mean:
    case op::variance:
    case op::moments:
        moments_case(s, one, moments_rules_for(ws));
        break;
    case op::count_if:
    case op::sum_count:
        switch (c.thresholds) {
        case threshold_type::element: check_narrow_count<T, T>(s, w); break;
        case threshold_type::f64: check_narrow_count<T, double>(s, w); break;
        case threshold_type::i64: check_narrow_count<T, std::int64_t>(s, w); break;
        case threshold_type::u64: check_narrow_count<T, std::uint64_t>(s, w); break;
        }
        break;
    }
}

} // namespace

void check_narrow_case(const fuzz_case& c) {
    switch (c.type) {
    case element::i8: check_narrow<std::int8_t>(c); break;
    case element::u8: check_narrow<std::uint8_t>(c); break;
    case element::i16: check_narrow<std::int16_t>(c); break;
    case element::u16: check_narrow<std::uint16_t>(c); break;
    case element::f16: check_narrow<preduce::float16>(c); break;
    case element::bf16: check_narrow<preduce::bfloat16>(c); break;
    default: std::abort();  // a 32/64-bit type: reduce_body.cpp's check_case
    }
}

} // namespace preduce_fuzz
