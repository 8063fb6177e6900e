#pragma once
// The narrow element types: int8, uint8, int16, uint16, float16 and bfloat16, with the
// accumulation rules of README's semantics table (sums in 64-bit integers or float32,
// wide_sum in double, min/max/argmin/argmax exact on the element with float's NaN and
// signed-zero rules). Every result is compared with a plain loop over the widened values
// written here, and the fixed-order sums with the one-lane reference of
// detail/algorithm/fixed_order/order.hpp.
//
// Two bodies include it: cases.hpp (a backend's header-only template) and
// tests/narrow_cases.cpp (the compiled front end, and preduce::mpi). The includer defines
// UNDER_TEST, a namespace whose reduce(p, n, op, opts) and reduce(x, y, n, op, opts) run
// the call, and put() for on() (support.hpp); NARROW_COMPILED_OPS_ONLY leaves out the
// fused combination the front end does not compile, NARROW_NO_COMPENSATED the compensated
// sums (refused across MPI ranks).
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include <catch2/catch.hpp>

#include "custom/support.hpp"
#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/half.hpp"
#include "preduce/ops.hpp"

namespace custom_test {

// A value's IEEE-style bits, to compare float results including NaN and -0.
template <class V>
auto bits(V v) {
    if constexpr (preduce::detail::is_half_v<V>) return v.bits;
    else if constexpr (std::is_floating_point_v<V>) return std::bit_cast<preduce::detail::bits_t<V>>(v);
    else return v;
}

// Random elements: integers over their whole range; 16-bit floats finite, with magnitudes
// 2^-20 .. 2^20 (bfloat16) or every finite exponent (float16), subnormals and zeros among them.
template <class T>
std::vector<T> narrow_values(std::mt19937_64& rng, std::size_t n) {
    std::vector<T> v(n);
    for (auto& x : v) {
        const auto r = static_cast<std::uint16_t>(rng());
        if constexpr (std::is_same_v<T, preduce::float16>) {
            x = {(r & 0x7c00u) == 0x7c00u ? static_cast<std::uint16_t>(r & 0xbfffu) : r};
        } else if constexpr (std::is_same_v<T, preduce::bfloat16>) {
            const auto exponent = static_cast<std::uint16_t>(107u + (r >> 8) % 41u);  // 2^-20 .. 2^20
            x = {static_cast<std::uint16_t>((r & 0x807fu) | (exponent << 7))};
        } else {
            x = static_cast<T>(r);
        }
    }
    return v;
}

// min/max/argmin/argmax of the widened values by the library's rules: any NaN wins (the
// first one for the arg forms), -0 below +0, the lowest index on ties.
template <class T, bool Max>
std::size_t plain_arg_extremum(const std::vector<T>& x, std::size_t n) {
    using preduce::detail::widen;
    std::size_t best = preduce::no_index;
    for (std::size_t i = 0; i < n; ++i) {
        if (preduce::detail::is_nan(x[i])) return i;
        if (best == preduce::no_index) {
            best = i;
            continue;
        }
        const auto a = widen(x[best]), b = widen(x[i]);
        const bool b_better =
            Max ? (a < b || (a == b && std::signbit(static_cast<double>(a)) && !std::signbit(static_cast<double>(b))))
                : (b < a || (a == b && std::signbit(static_cast<double>(b)) && !std::signbit(static_cast<double>(a))));
        if (b_better) best = i;
    }
    return best;
}

template <class T>
void narrow_body(std::mt19937_64& rng, std::size_t where, const std::vector<preduce::options>& option_sets) {
    using preduce::detail::widen;
    using C = preduce::detail::compute_t<T>;
    namespace fixed_order = preduce::detail::fixed_order;
    constexpr bool is_half = preduce::detail::is_half_v<T>;
    const std::size_t largest = 1048579;
    const std::vector<T> x = narrow_values<T>(rng, largest), y = narrow_values<T>(rng, largest);
    const char* type = preduce::detail::type_name<T>();

    for (std::size_t n : sizes) {
        if (n > largest) continue;
        // The plain loops: exact integer sums in C, float sums in double with the sum of
        // magnitudes for the error bound of a float32 accumulation in any order.
        C sum = C(0), sq = C(0), abs = C(0), dot = C(0);
        double dsum = 0, dsq = 0, dabs = 0, ddot = 0, mag = 0, sqmag = 0, dotmag = 0;
        std::uint64_t above = 0;
        const C pivot = n == 0 ? C(0) : widen(x[n / 2]);
        for (std::size_t i = 0; i < n; ++i) {
            const C a = widen(x[i]), b = widen(y[i]);
            if constexpr (is_half) {
                dsum += a;
                dsq += static_cast<double>(a) * a;
                dabs += std::fabs(a);
                ddot += static_cast<double>(a) * b;
                mag += std::fabs(a);
                sqmag += static_cast<double>(a) * a;
                dotmag += std::fabs(static_cast<double>(a) * b);
            } else {
                using U = std::make_unsigned_t<C>;
                sum = static_cast<C>(static_cast<U>(sum) + static_cast<U>(a));
                sq = static_cast<C>(static_cast<U>(sq) + static_cast<U>(a) * static_cast<U>(a));
                if constexpr (std::is_signed_v<C>) abs = static_cast<C>(static_cast<U>(abs) + static_cast<U>(a < 0 ? -a : a));
                else abs = static_cast<C>(abs + a);
                dot = static_cast<C>(static_cast<U>(dot) + static_cast<U>(a) * static_cast<U>(b));
            }
            above += a > pivot;
        }
        // Higham's bound for n float32 additions of terms rounded once each, plus slack for
        // the float32 rounding of products (sumsq, dot).
        const double u = std::ldexp(1.0, -24), k = static_cast<double>(n) + 1;
        const auto near = [&](double got, double want, double magnitude) {
            return std::fabs(got - want) <= 2 * k * u * magnitude + 1e-30;
        };
        const std::size_t amin = plain_arg_extremum<T, false>(x, n), amax = plain_arg_extremum<T, true>(x, n);

        for (const auto& opts : option_sets) {
            INFO(type << ", n " << n << ", threads " << opts.threads << ", seed " << seed());
            const T* px = on(x, 0, where);
            const T* py = on(y, 1, where);

            const C got_sum = UNDER_TEST::reduce(px, n, preduce::sum, opts);
            static_assert(std::is_same_v<std::remove_const_t<decltype(got_sum)>, C>);
            const auto got_wide = UNDER_TEST::reduce(px, n, preduce::wide_sum, opts);
            const C got_sq = UNDER_TEST::reduce(px, n, preduce::sumsq, opts);
            const C got_abs = UNDER_TEST::reduce(px, n, preduce::asum, opts);
            const C got_dot = UNDER_TEST::reduce(px, py, n, preduce::dot, opts);
            if constexpr (is_half) {
                CHECK(near(got_sum, dsum, mag));
                CHECK(std::fabs(got_wide - dsum) <= 1e-9 * mag + 1e-300);
                CHECK(near(got_sq, dsq, sqmag));
                CHECK(near(got_abs, dabs, mag));
                CHECK(near(got_dot, ddot, dotmag));
                // The fixed order: the one-lane reference's bits.
#if defined(NARROW_NO_COMPENSATED)
                for (preduce::precision p : {preduce::precision::deterministic}) {
#else
                for (preduce::precision p : {preduce::precision::deterministic, preduce::precision::compensated}) {
#endif
                    preduce::options o = opts;
                    o.precision = p;
                    const float got = UNDER_TEST::reduce(px, n, preduce::sum, o);
                    const float want = p == preduce::precision::deterministic
                                           ? fixed_order::reduce_serial<preduce::precision::deterministic>(
                                                 preduce::sum_reducer<T>{}, x.data(), n)
                                           : fixed_order::reduce_serial<preduce::precision::compensated>(
                                                 preduce::sum_reducer<T>{}, x.data(), n);
                    CHECK(bits(got) == bits(want));
                    CHECK(near(got, dsum, mag));
                }
            } else {
                CHECK(got_sum == sum);
                CHECK(got_wide == sum);
                CHECK(got_sq == sq);
                CHECK(got_abs == abs);
                CHECK(got_dot == dot);
            }

            const T got_min = UNDER_TEST::reduce(px, n, preduce::min, opts);
            const T got_max = UNDER_TEST::reduce(px, n, preduce::max, opts);
            const auto got_amin = UNDER_TEST::reduce(px, n, preduce::argmin, opts);
            const auto got_amax = UNDER_TEST::reduce(px, n, preduce::argmax, opts);
            const auto mm = UNDER_TEST::reduce(px, n, preduce::minmax, opts);
            CHECK(got_amin.index == (n == 0 ? preduce::no_index : amin));
            CHECK(got_amax.index == (n == 0 ? preduce::no_index : amax));
            if (n > 0) {
                CHECK(bits(got_min) == bits(x[amin]));
                CHECK(bits(got_max) == bits(x[amax]));
                CHECK(bits(got_amin.value) == bits(x[amin]));
                CHECK(bits(mm.min) == bits(x[amin]));
                CHECK(bits(mm.max) == bits(x[amax]));
            }
            CHECK(UNDER_TEST::reduce(px, n, preduce::count_if(preduce::greater(pivot)), opts) == above);
#if !defined(NARROW_COMPILED_OPS_ONLY)
            const auto [f_sum, f_max, f_above] = UNDER_TEST::reduce(
                px, n, preduce::fused(preduce::sum, preduce::max, preduce::count_if(preduce::greater(pivot))), opts);
            CHECK((bits(f_sum) == bits(got_sum) || (is_half && near(f_sum, dsum, mag))));
            CHECK(bits(f_max) == bits(got_max));
            CHECK(f_above == above);
#endif
            if (n > 0) {
                double mean = 0;
                for (std::size_t i = 0; i < n; ++i) mean += static_cast<double>(widen(x[i]));
                mean /= static_cast<double>(n);
                const auto mo = UNDER_TEST::reduce(px, n, preduce::moments, opts);
                CHECK(mo.count == n);
                CHECK(std::fabs(mo.mean - mean) <= 1e-9 * (std::fabs(mean) + 1e4));
            }
        }
    }
}

// The values README's table singles out, on the 16-bit floats.
template <class T>
void narrow_specials(std::size_t where) {
    using preduce::detail::widen;
    using H = std::remove_const_t<T>;
    const bool f16 = std::is_same_v<H, preduce::float16>;
    const H inf = preduce::detail::infinity<H>(), ninf = preduce::detail::negative_infinity<H>();
    const H nan = preduce::detail::quiet_nan<H>();
    const H negative_nan_payload{static_cast<std::uint16_t>(nan.bits | 0x8001u)};
    const H zero{0}, negative_zero{0x8000};
    const H smallest{1};  // the smallest subnormal
    const H largest{static_cast<std::uint16_t>(f16 ? 0x7bffu : 0x7f7fu)};
    const H one = preduce::detail::round_from_float<H>(1.0f);
    INFO("specials of " << preduce::detail::type_name<H>());
    const auto run = [&](const std::vector<H>& v, const auto& op) {
        return UNDER_TEST::reduce(on(v, 0, where), v.size(), op, preduce::options{});
    };
    // The failure the accumulation rule exists for: bfloat16 ones summed in bfloat16 stop at 256.
    const std::vector<H> ones(1000, one);
    CHECK(run(ones, preduce::sum) == 1000.0f);
    // The largest finite values sum far beyond the element's range in float.
    const std::vector<H> big(1000, largest);
    CHECK(run(big, preduce::sum) == 1000.0f * widen(largest));
    const std::vector<H> zeros{zero, negative_zero, zero};
    CHECK(bits(run(zeros, preduce::min)) == negative_zero.bits);
    CHECK(bits(run(zeros, preduce::max)) == zero.bits);
    CHECK(run(zeros, preduce::argmin).index == 1);
    const std::vector<H> negative_zeros{negative_zero, negative_zero};
    CHECK(bits(run(negative_zeros, preduce::sum)) == bits(-0.0f));
    const std::vector<H> subnormals(4096, smallest);
    CHECK(run(subnormals, preduce::sum) == 4096.0f * widen(smallest));
    CHECK(bits(run(subnormals, preduce::min)) == smallest.bits);
    const std::vector<H> infinities{one, inf, one, ninf};
    CHECK(std::isnan(run(infinities, preduce::sum)));
    CHECK(bits(run(infinities, preduce::max)) == inf.bits);
    CHECK(bits(run(infinities, preduce::min)) == ninf.bits);
    const std::vector<H> nans{one, negative_nan_payload, zero, nan};
    CHECK(bits(run(nans, preduce::min)) == nan.bits);  // the canonical quiet NaN
    CHECK(bits(run(nans, preduce::max)) == nan.bits);
    CHECK(run(nans, preduce::argmax).index == 1);     // the first NaN
    CHECK(std::isnan(run(nans, preduce::sum)));
    CHECK(run(nans, preduce::count_if(preduce::is_nan())) == 2);
    CHECK(run(nans, preduce::count_if(preduce::greater(0.5f))) == 1);
    CHECK(run(nans, preduce::count_if(preduce::less(one))) == 1);  // a threshold of the element type
}

// Every element at the type's extreme, so that every partial sum is as large as it can be:
// no lane of any width may wrap.
template <class T>
void narrow_int_extremes(std::size_t where, const std::vector<preduce::options>& option_sets) {
    using C = preduce::detail::compute_t<T>;
    for (const T v : {std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max()}) {
        const std::vector<T> x(3000017, v);
        INFO("extremes of " << preduce::detail::type_name<T>() << ", seed " << seed());
        for (const auto& opts : option_sets)
            CHECK(UNDER_TEST::reduce(on(x, 0, where), x.size(), preduce::sum, opts) ==
                         static_cast<C>(v) * static_cast<C>(x.size()));
    }
}

inline void run_narrow(std::size_t where, const std::vector<preduce::options>& option_sets) {
    std::mt19937_64 rng(seed() ^ 0x6e6172726f77ull);
    narrow_body<std::int8_t>(rng, where, option_sets);
    narrow_body<std::uint8_t>(rng, where, option_sets);
    narrow_body<std::int16_t>(rng, where, option_sets);
    narrow_body<std::uint16_t>(rng, where, option_sets);
    narrow_body<preduce::float16>(rng, where, option_sets);
    narrow_body<preduce::bfloat16>(rng, where, option_sets);
    narrow_int_extremes<std::int8_t>(where, option_sets);
    narrow_int_extremes<std::uint8_t>(where, option_sets);
    narrow_int_extremes<std::int16_t>(where, option_sets);
    narrow_int_extremes<std::uint16_t>(where, option_sets);
    narrow_specials<preduce::float16>(where);
    narrow_specials<preduce::bfloat16>(where);
}

} // namespace custom_test
