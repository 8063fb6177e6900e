#pragma once
// What the reduce fuzz body (reduce_body.cpp for the 32/64-bit types, narrow_body.cpp for
// the 8/16-bit ones) shares: the data of a case and the pointers the backends get
// (subject), running one call on every host backend (on_every_backend), and the judges of
// float sums, float products and moments, which the narrow cases apply to the widened
// values.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "fuzz_case.hpp"
#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/preduce.hpp"
#include "oracle/compare.hpp"
#include "oracle/oracle.hpp"
#include "values.hpp"

namespace preduce_fuzz {


using preduce::backend;
using preduce::precision;
namespace oracle = preduce::test::oracle;
namespace fixed_order = preduce::detail::fixed_order;
using preduce::test::same;
using preduce::test::show;

template <class A>
constexpr long double unit_roundoff = std::numeric_limits<A>::epsilon() / 2;

// Every backend this build can run on the host, in all_backends order (seq first).
inline const std::vector<backend>& host_backends() {
    static const std::vector<backend> list = [] {
        std::vector<backend> v;
        for (backend b : preduce::available_backends())
            if (b != backend::cuda) v.push_back(b);
        return v;
    }();
    return list;
}

[[noreturn]] inline void fail(const fuzz_case& c, backend b, const std::string& what) {
    std::fprintf(stderr, "preduce-fuzz: %s backend=%s: %s\n", describe(c).c_str(), std::string(preduce::name(b)).c_str(),
                 what.c_str());
    std::fflush(stderr);
    std::abort();
}

// Exactly the bytes a placement needs, so that ASan reports a read one byte past the
// last element; 64-byte aligned, so that the case's offsets alone decide the alignment.
class buffer {
public:
    explicit buffer(std::size_t bytes)
        : p_(static_cast<unsigned char*>(::operator new(bytes == 0 ? 1 : bytes, std::align_val_t{64}))) {}
    ~buffer() { ::operator delete(p_, std::align_val_t{64}); }
    buffer(const buffer&) = delete;
    buffer& operator=(const buffer&) = delete;
    unsigned char* data() const { return p_; }

private:
    unsigned char* p_;
};

// The data of one case: aligned copies for the oracles (x, and y = x reversed as the
// second input of dot, like tests/support/checks.hpp) and the pointers the backends get.
template <class T>
struct subject {
    const fuzz_case& c;
    std::vector<T> x, y;
    std::size_t shift;  // bytes from the 64-byte aligned start to the first element
    buffer bx, by;
    const T* px = nullptr;
    const T* py = nullptr;
    preduce::options opts;
    std::vector<const char*> input_refusals;  // what the front end must refuse, as its message says it

    explicit subject(const fuzz_case& fc)
        : c(fc), x(make_values<T>(fc)), y(x.rbegin(), x.rend()),
          shift(fc.offset * sizeof(T) + fc.byte_offset % sizeof(T)), bx(shift + x.size() * sizeof(T)),
          by(shift + y.size() * sizeof(T)) {
        if (!x.empty()) {
            std::memcpy(bx.data() + shift, x.data(), x.size() * sizeof(T));
            std::memcpy(by.data() + shift, y.data(), y.size() * sizeof(T));
        }
        // A misaligned T* is what a caller casting a byte buffer would pass; preduce must
        // refuse it before any access (the test suite does the same).
        px = fc.null_data ? nullptr : reinterpret_cast<const T*>(bx.data() + shift);
        py = reinterpret_cast<const T*>(by.data() + shift);
        opts.threads = fc.threads;
        opts.precision = fc.precision;
        if (fc.n > 0 && fc.null_data) input_refusals.push_back("null");
        else if (fc.n > 0 && shift % sizeof(T) != 0) input_refusals.push_back("align");
    }
    std::size_t n() const { return x.size(); }
    std::span<const T> xs() const { return x; }
    std::span<const T> ys() const { return y; }

    // The refusals due for this case plus, when the operation cannot honour a fixed-order
    // precision, that one (whose message names precision::).
    std::vector<const char*> refusals(bool precision_refused, const char* other = nullptr) const {
        auto r = input_refusals;
        if (precision_refused && c.precision != precision::fast) r.push_back("precision");
        if (other != nullptr) r.push_back(other);
        return r;
    }
};

// Runs call(b) on every host backend; either every one refuses with invalid_argument
// whose message names one of the refusals, or every one returns a result for check().
template <class Call, class Check>
void on_every_backend(const fuzz_case& c, const std::vector<const char*>& refusals, Call call, Check check) {
    for (backend b : host_backends()) {
        using R = std::remove_cvref_t<decltype(call(b))>;
        std::optional<R> got;
        std::string error;
        try {
            got.emplace(call(b));
        } catch (const preduce::invalid_argument& e) {
            error = e.what();
        } catch (const preduce::error& e) {
            fail(c, b, std::string("unexpected preduce::error: ") + e.what());
        }
        if (!refusals.empty()) {
            if (got) fail(c, b, std::string("returned a result where invalid_argument was due (") + refusals.front() + ")");
            bool named = false;
            for (const char* hint : refusals) named = named || error.find(hint) != std::string::npos;
            if (!named) fail(c, b, std::string("invalid_argument does not say why (no '") + refusals.front() + "'): " + error);
            continue;
        }
        if (!got) fail(c, b, "refused a valid input: " + error);
        check(b, *got);
    }
}

template <class V>
void expect_same(const fuzz_case& c, backend b, const V& got, const V& want, const char* what) {
    if (!same(got, want)) fail(c, b, std::string(what) + " " + show(got) + ", expected " + show(want));
}

template <class A>
auto bits(A v) {
    return std::bit_cast<std::conditional_t<sizeof(A) == 4, std::uint32_t, std::uint64_t>>(v);
}

// What IEEE arithmetic allows a floating-point sum to be in ANY order, given the terms the
// library adds (each already rounded to the accumulator type A): README's "float sums".
template <class A>
struct sum_rules {
    oracle::float_sum ref;     // exact sum of the unrounded terms and Higham's bound
    bool nan = false;          // a NaN term, or +inf and -inf terms: NaN in every order
    bool pos_inf = false, neg_inf = false;
    bool may_overflow = false;  // finite terms so large that some order overflows: only NaN is certain
    bool all_zero = true;       // every term a zero (or none): the sum is a zero ...
    bool all_negative_zero = true;  // ... -0.0 exactly when every term is -0.0 (the identity is -0.0)
};

template <class A, class Term>
sum_rules<A> rules_for(std::size_t n, Term term, const oracle::float_sum& ref) {
    sum_rules<A> r{ref};
    long double finite_abs = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const A t = term(i);
        if (std::isnan(t)) r.nan = true;
        else if (std::isinf(t)) (t > 0 ? r.pos_inf : r.neg_inf) = true;
        else finite_abs += std::fabs(static_cast<long double>(t));
        if (!(t == A(0))) r.all_zero = false;
        if (!(t == A(0) && std::signbit(t))) r.all_negative_zero = false;
    }
    r.nan = r.nan || (r.pos_inf && r.neg_inf);
    // Every partial sum is at most finite_abs (1 + u)^n in magnitude; half of max() leaves room.
    const long double u = unit_roundoff<A>;
    r.may_overflow = finite_abs * (1 + 4 * static_cast<long double>(n + 1) * u) >=
                     static_cast<long double>(std::numeric_limits<A>::max()) / 2;
    return r;
}

template <class A>
std::string judge_sum(A got, const sum_rules<A>& r) {
    if (r.nan) return std::isnan(got) ? "" : "expected NaN (a NaN term, or +inf and -inf terms)";
    if (r.may_overflow) return "";
    if (r.pos_inf || r.neg_inf) {
        const A want = r.pos_inf ? std::numeric_limits<A>::infinity() : -std::numeric_limits<A>::infinity();
        return got == want ? "" : "expected " + show(want) + " (infinite terms of one sign, no overflow)";
    }
    if (!std::isfinite(got)) return "not finite, though no order of these terms can overflow";
    if (r.all_zero) {
        if (got == A(0) && std::signbit(got) == r.all_negative_zero) return "";
        return std::string("every term is a zero: expected ") + (r.all_negative_zero ? "-0.0" : "+0.0");
    }
    const long double err = std::fabs(static_cast<long double>(got) - r.ref.exact);
    if (err > r.ref.bound)
        return "error " + show(static_cast<double>(err)) + " exceeds Higham's bound " +
               show(static_cast<double>(r.ref.bound)) + " (exact " + show(static_cast<double>(r.ref.exact)) + ")";
    return "";
}

// A floating-point sum (sum, wide_sum, sumsq, asum, dot, or the sum of a fused pack):
// within Higham's bound in every precision; under deterministic and compensated also
// bit-identical to the plain one-lane-at-a-time fixed order of detail/algorithm/fixed_order/order.hpp,
// hence to every other backend and thread count.
template <class A, class R, class Src>
void check_float_sum(const fuzz_case& c, backend b, A got, const sum_rules<A>& rules, const R& reducer, Src src,
                     std::size_t n) {
    if (const std::string e = judge_sum(got, rules); !e.empty()) fail(c, b, show(got) + ": " + e);
    if (c.precision == precision::fast) return;
    const A plain = c.precision == precision::deterministic ? fixed_order::reduce_serial<precision::deterministic>(reducer, src, n)
                                                            : fixed_order::reduce_serial<precision::compensated>(reducer, src, n);
    if (bits(got) != bits(plain))
        fail(c, b, show(got) + " differs in its bits from the fixed order's plain reference " + show(plain));
}

template <class T, class R, class Call, class Term>
void float_sum_case(const subject<T>& s, Call call, const R& reducer, Term term, const oracle::float_sum& ref) {
    using A = std::remove_cvref_t<decltype(call(backend::seq))>;
    const auto rules = rules_for<A>(s.n(), term, ref);
    on_every_backend(s.c, s.refusals(false), call, [&](backend b, A got) {
        check_float_sum(s.c, b, got, rules, reducer, s.x.data(), s.n());
    });
}

// ---- products --------------------------------------------------------------------------

// Float products: order-independent only while no partial product can overflow or
// underflow. Every partial product P of these factors has |log2 |P|| <= sum |log2 |x_i||
// (up to rounding), so below the exponent range that sum is a safe certificate.
template <class T>
void check_float_prod(const fuzz_case& c, backend b, T got, std::span<const T> x) {
    bool nan = false, zero = false, negative = false;
    long double log_sum = 0;
    for (T v : x) {
        nan = nan || std::isnan(v);
        if (v == T(0)) zero = true;
        else if (std::isfinite(v)) log_sum += std::fabs(std::log2(std::fabs(static_cast<long double>(v))));
        else log_sum = std::numeric_limits<long double>::infinity();
        negative ^= std::signbit(v);
    }
    if (nan) {
        if (!std::isnan(got)) fail(c, b, "prod " + show(got) + ": expected NaN (a NaN factor)");
        return;
    }
    const bool safe = log_sum + 4 < static_cast<long double>(-std::numeric_limits<T>::min_exponent);
    if (!safe) return;  // some order overflows or underflows; the value is order-dependent
    if (zero) {
        if (!(got == T(0) && std::signbit(got) == negative))
            fail(c, b, "prod " + show(got) + std::string(": expected ") + (negative ? "-0.0" : "+0.0") + " (a zero factor)");
        return;
    }
    const auto ref = oracle::prod_with_bound(x, unit_roundoff<T>);
    if (!(std::fabs(static_cast<long double>(got) - ref.exact) <= ref.bound))
        fail(c, b, "prod " + show(got) + " off the exact " + show(static_cast<double>(ref.exact)) + " by more than " +
                       show(static_cast<double>(ref.bound)));
}

// ---- moments -----------------------------------------------------------------------------

// README: mean and variance in double for every element type; NaN for empty input and
// for a NaN in the data; an infinity makes the variance NaN. Otherwise within the test
// suite's tolerances of a two-pass long double reference, when no intermediate of any
// merge order can overflow double; a variance beyond double's range must be +inf.
template <class T>
struct moments_rules {
    oracle::moments_ref ref;
    bool nan = false;
    bool variance_checkable = false;
    bool variance_overflows = false;
};

template <class T>
moments_rules<T> moments_rules_for(std::span<const T> x) {
    moments_rules<T> m{oracle::moments_of(x)};
    long double max_sq = 0;
    for (T v : x) {
        m.nan = m.nan || oracle::is_nan(v);
        max_sq = std::max(max_sq, static_cast<long double>(v) * static_cast<long double>(v));
    }
    const long double big = std::numeric_limits<double>::max();
    // A merge squares a difference of two means (|d| <= 2 max|x|) and scales it by a count.
    m.variance_checkable = 4 * max_sq * static_cast<long double>(x.size() + 1) < big / 16;
    m.variance_overflows = std::isfinite(m.ref.variance) && m.ref.variance > big;
    return m;
}

template <class T>
void check_moment_values(const fuzz_case& c, backend b, const moments_rules<T>& m, std::optional<double> mean,
                         std::optional<double> variance) {
    const auto& ref = m.ref;
    if (ref.count == 0 || m.nan) {
        if (mean && !std::isnan(*mean)) fail(c, b, "mean " + show(*mean) + ": expected NaN (empty input or a NaN)");
        if (variance && !std::isnan(*variance))
            fail(c, b, "variance " + show(*variance) + ": expected NaN (empty input or a NaN)");
        return;
    }
    if (!std::isfinite(ref.mean)) {  // infinities in the data
        if (mean) expect_same(c, b, *mean, static_cast<double>(ref.mean), "mean");
        if (variance && !std::isnan(*variance))
            fail(c, b, "variance " + show(*variance) + ": expected NaN (an infinity in the data)");
        return;
    }
    if (mean && !(std::fabs(*mean - ref.mean) <= oracle::mean_tolerance(ref)))
        fail(c, b, "mean " + show(*mean) + " off " + show(static_cast<double>(ref.mean)) + " by more than " +
                       show(static_cast<double>(oracle::mean_tolerance(ref))));
    if (!variance) return;
    if (m.variance_overflows) {
        if (*variance != std::numeric_limits<double>::infinity())
            fail(c, b, "variance " + show(*variance) + ": expected +inf (the variance exceeds double's range)");
    } else if (m.variance_checkable && !(std::fabs(*variance - ref.variance) <= oracle::variance_tolerance(ref))) {
        fail(c, b, "variance " + show(*variance) + " off " + show(static_cast<double>(ref.variance)) +
                       " by more than " + show(static_cast<double>(oracle::variance_tolerance(ref))));
    }
}

// ---- count_if ----------------------------------------------------------------------------

// How many values satisfy the predicate kind with thresholds a and b (in_range: a <= v < b;
// is_nan: nan(v)), by plain comparisons: the count_if oracle of both bodies.
template <class Range, class A, class IsNan>
std::uint64_t count_matching(const Range& values, preduce::predicate_kind kind, A a, A b, IsNan nan) {
    using K = preduce::predicate_kind;
    std::uint64_t want = 0;
    for (const auto& v : values) {
        switch (kind) {
        case K::equal: want += v == a; break;
        case K::not_equal: want += v != a; break;
        case K::less: want += v < a; break;
        case K::less_equal: want += v <= a; break;
        case K::greater: want += v > a; break;
        case K::greater_equal: want += v >= a; break;
        case K::in_range: want += a <= v && v < b; break;
        case K::is_nan: want += nan(v); break;
        }
    }
    return want;
}

// mean, variance or moments (the case's operation) on every backend, against the rules m
// of the values (the elements, or their widened values for the narrow types).
template <class S, class One, class T>
void moments_case(const S& s, One one, const moments_rules<T>& m) {
    const fuzz_case& c = s.c;
    if (c.operation == op::mean)
        on_every_backend(c, s.refusals(true), one(preduce::mean),
                         [&](backend b, double got) { check_moment_values(c, b, m, got, std::nullopt); });
    else if (c.operation == op::variance)
        on_every_backend(c, s.refusals(true), one(preduce::variance),
                         [&](backend b, double got) { check_moment_values(c, b, m, std::nullopt, got); });
    else
        on_every_backend(c, s.refusals(true), one(preduce::moments), [&](backend b, const auto& got) {
            expect_same(c, b, got.count, static_cast<std::uint64_t>(s.n()), "moments.count");
            check_moment_values(c, b, m, got.mean, got.variance());
        });
}

template <class T, class U>
preduce::predicate_spec<U> spec_of(preduce::predicate_kind kind, U a, U b) {
    using K = preduce::predicate_kind;
    switch (kind) {
    case K::equal: return preduce::equal(a);
    case K::not_equal: return preduce::not_equal(a);
    case K::less: return preduce::less(a);
    case K::less_equal: return preduce::less_equal(a);
    case K::greater: return preduce::greater(a);
    case K::greater_equal: return preduce::greater_equal(a);
    case K::in_range: return preduce::in_range(a, b);
    case K::is_nan: break;
    }
    return {K::is_nan, a, b};  // not reached: is_nan goes through preduce::is_nan()
}

} // namespace preduce_fuzz
