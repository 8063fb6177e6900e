// The ONE body of backend tests, compiled once and linked into one executable per built
// backend (and per memory residency for CUDA); nothing here knows which backend it tests.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <cstdint>
#include <limits>
#include <atomic>
#include <span>
#include <thread>
#include <vector>

#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/preduce.hpp"
#include "support/checks.hpp"
#include "support/data.hpp"
#include "support/under_test.hpp"

using namespace preduce;
using namespace preduce::test;
// The min and max operations are written preduce::min and preduce::max: built with nvcc (a
// Kokkos on CUDA compiles every file through nvcc_wrapper), CUDA's headers declare ::min and
// ::max as well.

namespace {

// Chunk, lane, warp and block boundaries of every backend sit at powers of two. Past a
// million (thread chunks, fixed-order trees of hundreds of blocks): 2^20+3 always, and
// 1000003, not near a power of two, except under the sanitizers (test::instrumented).
std::vector<std::size_t> sizes_of_random_cases() {
    std::vector<std::size_t> s = {1,    2,    3,    7,    31,   32,   33,    97,    255,   256,  257,   1021, 1023,
                                  1024, 1025, 4093, 4095, 4096, 4097, 16411, 32767, 32768, 32769, 65537};
    if (!instrumented) s.push_back(1000003);
    s.push_back((1u << 20) + 3);
    return s;
}
const std::vector<std::size_t> sizes = sizes_of_random_cases();
const std::vector<std::size_t> offsets = {0, 1, 3};  // unaligned starts: 4/8-byte aligned, not 16/32
constexpr std::size_t huge = (1u << 24) + 1;

template <class T>
std::span<const T> window(const std::vector<T>& v, std::size_t offset, std::size_t n) {
    return std::span<const T>(v.data() + offset, n);
}

} // namespace

#define PREDUCE_TEST_TYPES std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double

TEMPLATE_TEST_CASE("random data: every op and size and offset agrees with the oracle and seq", "[random]",
                   PREDUCE_TEST_TYPES) {
    const std::size_t largest = sizes.back() + offsets.back();
    const auto data = random_values<TestType>(largest, 1);
    const auto prod_data = product_values<TestType>(largest, 2);
    for (std::size_t n : sizes)
        for (std::size_t off : offsets) {
            check_every_op<TestType>(window(data, off, n));
            check_every_op<TestType>(window(prod_data, off, n), /*check_prod=*/true);
        }
}

TEMPLATE_TEST_CASE("2^24+1 elements", "[random][large]", PREDUCE_TEST_TYPES) {
    // Past 2^24, where a count or index kept in a float would stop being exact. One aligned
    // window: the random cases check unaligned starts (offsets) up to 2^20+3 elements.
    const auto data = random_values<TestType>(huge, 3);
    check_every_op<TestType>(std::span<const TestType>(data));
}

TEMPLATE_TEST_CASE("ties: lowest index wins", "[ties]", PREDUCE_TEST_TYPES) {
    for (std::size_t n : {1u, 33u, 1025u, 70001u}) {
        const auto data = tie_values<TestType>(n + 1, n);
        check_every_op<TestType>(window(data, 0, n));
        check_every_op<TestType>(window(data, 1, n));
        const std::vector<TestType> same_value(n, TestType(7));
        const auto am = run(same_value, argmin);
        const auto ax = run(same_value, argmax);
        CHECK(am.index == 0);
        CHECK(ax.index == 0);
        check_every_op<TestType>(std::span<const TestType>(same_value));
    }
}

TEMPLATE_TEST_CASE("extreme values: identities never win and integers wrap", "[extremes]", PREDUCE_TEST_TYPES) {
    using T = TestType;
    using L = std::numeric_limits<T>;
    for (std::size_t n : {1u, 2u, 257u, 100003u}) {
        // Every element equals the min identity (max()/inf): argmin must still name index 0.
        const std::vector<T> all_max(n, L::has_infinity ? L::infinity() : L::max());
        const std::vector<T> all_lowest(n, L::has_infinity ? -L::infinity() : L::lowest());
        CHECK(run(all_max, argmin).index == 0);
        CHECK(run(all_lowest, argmax).index == 0);
        check_every_op<T>(std::span<const T>(all_max));
        check_every_op<T>(std::span<const T>(all_lowest));
        const std::vector<T> all_top(n, L::max());
        check_every_op<T>(std::span<const T>(all_top), /*check_prod=*/std::is_integral_v<T>);
    }
    if constexpr (std::is_integral_v<T>) {
        const std::vector<T> over{L::max(), T(1)};
        CHECK(run(over, sum) == L::lowest());  // wraps like two's complement, no UB
        if constexpr (sizeof(T) == 4) CHECK(run(over, wide_sum) == static_cast<wide_t<T>>(L::max()) + 1);
        const std::vector<T> under{L::lowest(), T(-1)};
        CHECK(run(under, sum) == L::max());
    }
}

TEMPLATE_TEST_CASE("floating point: NaN and infinities and signed zeros and denormals", "[float]", float, double) {
    using T = TestType;
    using L = std::numeric_limits<T>;
    const T nan = L::quiet_NaN(), inf = L::infinity();
    for (std::size_t n : {1u, 3u, 64u, 1025u, 65537u}) {
        auto base = random_values<T>(n, n + 17);
        for (std::size_t pos : {std::size_t{0}, n / 2, n - 1}) {
            auto v = base;
            v[pos] = nan;
            check_every_op<T>(std::span<const T>(v));
            CHECK(run(v, argmin).index == pos);
            CHECK(run(v, argmax).index == pos);
            CHECK(std::isnan(run(v, preduce::min)));
            CHECK(std::isnan(run(v, preduce::max)));
            CHECK(std::isnan(run(v, sum)));
            CHECK(std::isnan(run(v, sumsq)));
            CHECK(std::isnan(run(v, mean)));
            CHECK(std::isnan(run(v, minmax).min));
            CHECK(std::isnan(run(v, minmax).max));
            if (n > 2) {  // a second, later NaN: the first still wins
                v[n - 1 - (pos == n - 1)] = -nan;
                CHECK(run(v, argmin).index == std::min(pos, n - 1 - (pos == n - 1)));
            }
            auto w = base;
            w[pos] = inf;
            check_every_op<T>(std::span<const T>(w));
            CHECK(run(w, sum) == inf);
            CHECK(run(w, argmax).index == pos);
            CHECK(run(w, mean) == inf);
            CHECK(std::isnan(run(w, variance)));  // deviations from an infinite mean are undefined
            if (n > 1) {
                w[(pos + 1) % n] = -inf;
                CHECK(std::isnan(run(w, sum)));
                CHECK(run(w, preduce::min) == -inf);
            }
        }
        // Signed zeros: -0.0 sorts below +0.0 in min/max/argmin/argmax.
        std::vector<T> zeros(n, T(0));
        zeros[n / 2] = T(-0.0);
        CHECK(std::signbit(run(zeros, preduce::min)));
        CHECK(std::signbit(run(zeros, preduce::max)) == (n == 1));
        CHECK(run(zeros, argmin).index == n / 2);
        CHECK(run(zeros, argmax).index == 0u);  // the first +0.0 (or the lone -0.0 when n == 1)
        check_every_op<T>(std::span<const T>(zeros));
        // Sum of negative zeros is -0.0: the identity of IEEE addition is -0.0, so padding cannot flip it.
        const std::vector<T> neg_zeros(n, T(-0.0));
        CHECK(std::signbit(run(neg_zeros, sum)));
        // Denormals are neither flushed nor lost.
        std::vector<T> tiny(n);
        for (std::size_t i = 0; i < n; ++i) tiny[i] = L::denorm_min() * static_cast<T>((i % 5) + 1) * (i % 2 ? -1 : 1);
        check_every_op<T>(std::span<const T>(tiny));
        CHECK(run(tiny, count_if(not_equal(T(0)))) == n);
    }
}

// The host folds take float extrema a block of 16 KiB at a time by the float compare, and
// send a block with a NaN, an infinity, a zero extremum or an overflowing sum to the keys:
// mixes of such blocks and plain ones, the winner in either kind.
TEMPLATE_TEST_CASE("floating point: extrema over blocks of every kind", "[float]", float, double) {
    using T = TestType;
    using L = std::numeric_limits<T>;
    const std::size_t block = 16384 / sizeof(T), n = 5 * block + 7;
    const auto base = random_values<T>(n, 99);
    auto big = base;  // sums overflow in every block; the extremes in the third
    for (T& x : big) x = L::max() * (x < 0 ? T(-0.5) : T(0.5));
    big[2 * block + 3] = L::max();
    big[2 * block + 5] = L::lowest();  // (no check_every_op: the sums overflow, each in its own order)
    CHECK(run(big, preduce::max) == L::max());
    CHECK(run(big, preduce::min) == L::lowest());
    CHECK(run(big, argmax).index == 2 * block + 3);
    CHECK(run(big, argmin).index == 2 * block + 5);
    auto signs = base;  // positives and one -0.0 in block 1, +0.0 first in block 3; the negatives later
    for (T& x : signs) x = std::abs(x) + T(1);
    signs[block + 9] = T(-0.0);
    signs[3 * block] = T(0);
    check_every_op<T>(std::span<const T>(signs));
    CHECK(run(signs, argmin).index == block + 9);
    CHECK(std::signbit(run(signs, preduce::min)));
    for (std::size_t i = 4 * block; i < n; ++i) signs[i] = -std::abs(base[i]) - T(1);
    check_every_op<T>(std::span<const T>(signs));
    const auto lowest = std::min_element(signs.begin() + 4 * block, signs.end()) - signs.begin();
    CHECK(run(signs, argmin).index == static_cast<std::size_t>(lowest));
    auto late_nan = base;  // the best number early, a NaN in the last block
    late_nan[5] = T(-1e6);
    late_nan[n - 2] = L::quiet_NaN();
    check_every_op<T>(std::span<const T>(late_nan));
    CHECK(run(late_nan, argmin).index == n - 2);
    auto descending = base;  // every block beats the ones before
    for (std::size_t i = 0; i < n; ++i) descending[i] = static_cast<T>(n - i);
    check_every_op<T>(std::span<const T>(descending));
    CHECK(run(descending, argmin).index == n - 1);
    CHECK(run(descending, argmax).index == 0u);
}

TEMPLATE_TEST_CASE("empty input gives the identity", "[empty]", PREDUCE_TEST_TYPES) {
    using T = TestType;
    const std::vector<T> none;
    CHECK(run(none, sum) == T(0));
    CHECK(run(none, wide_sum) == wide_t<T>(0));
    CHECK(run(none, prod) == T(1));
    CHECK(same(run(none, preduce::min), oracle::identity<T, false>()));
    CHECK(same(run(none, preduce::max), oracle::identity<T, true>()));
    CHECK(run(none, argmin).index == no_index);
    CHECK(run(none, argmax).index == no_index);
    CHECK(run(none, count_if(greater(T(0)))) == 0u);
    CHECK(run(none, sumsq) == T(0));
    CHECK(run(none, asum) == T(0));
    CHECK(run2(std::span<const T>(none), std::span<const T>(none), dot) == T(0));
    CHECK(same(run(none, minmax).min, oracle::identity<T, false>()));
    CHECK(same(run(none, minmax).max, oracle::identity<T, true>()));
    CHECK(run(none, moments).count == 0u);
    CHECK(std::isnan(run(none, mean)));
    CHECK(std::isnan(run(none, variance)));
    CHECK(reduce(under_test(), static_cast<const T*>(nullptr), 0, sum) == T(0));  // null with n == 0 is an empty input
}

TEMPLATE_TEST_CASE("moments: constant data have variance 0 and a large offset does not cancel", "[moments]",
                   float, double, std::int64_t) {
    using T = TestType;
    for (std::size_t n : {1u, 2u, 33u, 4097u, 70001u, 1000003u}) {
        const std::vector<T> same_value(n, T(12345));
        const auto m = run(same_value, moments);
        CHECK(m.count == n);
        CHECK(m.mean == 12345.0);
        CHECK(m.variance() == 0.0);
        // 1e8 + {0, 1, 2, 3}: sum(x^2) - n mean^2 in double loses every digit of the
        // variance (1.25); the pairwise merge keeps it.
        std::vector<T> offset(n);
        for (std::size_t i = 0; i < n; ++i) offset[i] = static_cast<T>(100000000 + static_cast<int>(i % 4));
        const auto ref = oracle::moments_of(std::span<const T>(offset));
        INFO("n " << n << " variance " << run(offset, variance) << " expected " << static_cast<double>(ref.variance));
        CHECK(std::fabs(run(offset, variance) - static_cast<double>(ref.variance)) <= 1e-6);
        // Welford's left fold (seq) drifts by up to ~n u |mean| in the mean.
        CHECK(std::fabs(run(offset, mean) - static_cast<double>(ref.mean)) <= 4.0 * n * 1.2e-16 * 1e8);
    }
}

TEST_CASE("moments: squared deviations beyond double's range give variance +inf and a finite mean", "[moments]") {
    // Data whose squared deviations overflow double: a two-pass block fold that corrects the
    // variance with their sum would form inf - inf and, clamping that NaN, report 0 (the
    // host fold, preduce/host_simd/lane_fold.hpp, falls back to Welford's update instead);
    // and a deviation beyond double's range must not make the mean infinite.
    const double big = 4.26e257, top = std::numeric_limits<double>::max();
    for (std::size_t n : {12u, 4097u, 70001u}) {
        std::vector<double> v(n, 1.5);
        v[n / 3] = big;  // its square overflows, the sum does not
        INFO("n " << n);
        CHECK(run(v, variance) == std::numeric_limits<double>::infinity());
        CHECK(std::fabs(run(v, mean) - big / static_cast<double>(n)) <= 1e-12 * big / static_cast<double>(n));
        std::vector<double> w(n, -top);
        w[n / 2] = top;  // top - mean overflows
        const auto m = run(w, moments);
        const auto ref = oracle::moments_of(std::span<const double>(w));
        CHECK(m.variance() == std::numeric_limits<double>::infinity());
        CHECK(std::fabs(m.mean - ref.mean) <= oracle::mean_tolerance(ref));
    }
}

TEMPLATE_TEST_CASE("thread counts do not change exact results", "[threads]", PREDUCE_TEST_TYPES) {
    const auto data = random_values<TestType>(300007, 5);
    for (int threads : {1, 2, 3, 8}) check_every_op<TestType>(std::span<const TestType>(data), false, {.threads = threads});
}

TEST_CASE("concurrent calls from several host threads all give the seq answer", "[threads][concurrency]") {
    const auto f = random_values<float>(100003, 7);
    const auto i = random_values<std::int32_t>(70001, 8);
    const auto want_f = reduce(backend::seq, f, argmax);
    const auto want_i = reduce(backend::seq, i, wide_sum);
    const auto want_c = reduce(backend::seq, f, count_if(greater(0.0f)));
    std::atomic<int> wrong{0}, failed{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < 4; ++t)
        pool.emplace_back([&] {
            for (int k = 0; k < 25; ++k) {
                try {
                    // Host data as given: the staging/device copies of stage() are not thread-safe.
                    wrong += !(reduce(under_test(), f, argmax) == want_f);
                    wrong += reduce(under_test(), i, wide_sum) != want_i;
                    wrong += reduce(under_test(), f, count_if(greater(0.0f))) != want_c;
                } catch (...) {
                    ++failed;
                }
            }
        });
    for (auto& th : pool) th.join();
    CHECK(wrong == 0);
    CHECK(failed == 0);
}

TEST_CASE("bad input is an exception and not a crash", "[errors]") {
    std::vector<float> v(16, 1.0f);
    CHECK_THROWS_AS(reduce(under_test(), static_cast<const float*>(nullptr), 5, sum), preduce::invalid_argument);
    const auto* misaligned = reinterpret_cast<const float*>(reinterpret_cast<const char*>(v.data()) + 1);
    CHECK_THROWS_AS(reduce(under_test(), misaligned, 4, sum), preduce::invalid_argument);
    std::vector<std::int32_t> iv(16, 1);
    CHECK_THROWS_AS(run(iv, count_if(greater(0.5))), preduce::invalid_argument);
    CHECK_THROWS_AS(run(v, count_if(equal(std::nan("")))), preduce::invalid_argument);
    CHECK_THROWS_AS(run(v, count_if(in_range(2.0f, 1.0f))), preduce::invalid_argument);
    CHECK_THROWS_AS(run(iv, count_if(greater(std::uint64_t{1} << 40))), preduce::invalid_argument);
    // Integer thresholds beyond float's integers: float(UINT64_MAX) rounds to 2^64, one past
    // uint64's range, so converting it back to check it would be UB (UBSan's float-cast-
    // overflow check in scripts/ci/sanitize.sh reports it); a double beyond float's range
    // likewise.
    CHECK_THROWS_AS(run(v, count_if(greater(std::numeric_limits<std::uint64_t>::max()))), preduce::invalid_argument);
    CHECK_THROWS_AS(run(v, count_if(less(std::numeric_limits<std::int64_t>::max()))), preduce::invalid_argument);
    CHECK_THROWS_AS(run(v, count_if(less(1e300))), preduce::invalid_argument);
    CHECK(run(v, count_if(less(std::int64_t{1} << 40))) == 16u);  // 2^40 is exact in float
    CHECK(run(v, count_if(greater(std::numeric_limits<std::int64_t>::min()))) == 16u);  // so is -2^63
    CHECK_THROWS_AS(reduce(under_test(), static_cast<const double*>(nullptr), std::numeric_limits<std::size_t>::max(), sum),
                    preduce::error);
    // After errors, the backend still works.
    CHECK(run(v, sum) == 16.0f);
}

namespace {
template <class T>
std::string bits_of(T v) {
    using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%0*llx", static_cast<int>(2 * sizeof(T)),
                  static_cast<unsigned long long>(std::bit_cast<U>(v)));
    return buf;
}
} // namespace

TEMPLATE_TEST_CASE("deterministic and compensated sums have the same bits on every backend and thread count",
                   "[precision]", float, double) {
    using T = TestType;
    const std::vector<std::size_t> det_sizes = {1,    31,   32,   33,    4095,  4096,  4097, 8191,
                                                8192, 8193, 32769, 65537, 100003, (1u << 20) + 5};
    const auto data = random_values<T>(det_sizes.back(), 41);
    const auto other = random_values<T>(det_sizes.back(), 42);
    for (std::size_t n : det_sizes)
        for (precision p : {precision::deterministic, precision::compensated})
            for (int threads : {0, 1, 2, 3, 8}) {
                const options o{.threads = threads, .precision = p};
                const std::span<const T> x(data.data(), n), y(other.data(), n);
                const auto ref = [&](const auto& op) { return reduce(backend::seq, x, op, {.precision = p}); };
                INFO("n " << n << ", " << name(p) << ", threads " << threads << ", seed " << seed());
                const T s = run(x, sum, o), ss = run(x, sumsq, o), as = run(x, asum, o);
                const auto ws = run(x, wide_sum, o);
                const T d = run2(x, y, dot, o);
                CHECK(bits_of(s) == bits_of(ref(sum)));
                CHECK(bits_of(ss) == bits_of(ref(sumsq)));
                CHECK(bits_of(as) == bits_of(ref(asum)));
                CHECK(bits_of(ws) == bits_of(ref(wide_sum)));
                CHECK(bits_of(d) == bits_of(reduce(backend::seq, x, y, dot, {.precision = p})));
                check_float_sum<T>(s, x, std::numeric_limits<T>::epsilon() / 2, "fixed-order sum");
                // The plain one-lane-at-a-time reference of detail/algorithm/fixed_order/order.hpp (no SIMD,
                // no threads): what the CUDA kernels and the host folds must both reproduce.
                namespace fixed_order = preduce::detail::fixed_order;
                const auto plain = [&](const auto& r, auto src) {
                    return p == precision::deterministic ? fixed_order::reduce_serial<precision::deterministic>(r, src, n)
                                                         : fixed_order::reduce_serial<precision::compensated>(r, src, n);
                };
                CHECK(bits_of(s) == bits_of(plain(sum_reducer<T>{}, x.data())));
                CHECK(bits_of(ss) == bits_of(plain(sumsq_reducer<T>{}, x.data())));
                CHECK(bits_of(d) == bits_of(plain(dot_reducer<T>{}, zip_source<T, T>{x.data(), y.data()})));
                // nansum, on data where a NaN is every 7th element: NaN counts as +0.0, same bits
                std::vector<T> holes(x.begin(), x.end());
                for (std::size_t i = 0; i < holes.size(); i += 7) holes[i] = std::numeric_limits<T>::quiet_NaN();
                const std::span<const T> h(holes);
                const T ns = run(h, nansum, o);
                CHECK(bits_of(ns) == bits_of(reduce(backend::seq, h, nansum, {.precision = p})));
                CHECK(bits_of(ns) == bits_of(plain(nansum_reducer<T>{}, holes.data())));
            }
}

TEMPLATE_TEST_CASE("a NaN deterministic or compensated sum is the canonical quiet NaN on every backend",
                   "[precision][float]", float, double) {
    using T = TestType;
    using L = std::numeric_limits<T>;
    using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    // NaNs of both signs and with payloads, and +inf with -inf (whose sum is x86's default
    // NaN, sign bit set): which of them an addition keeps depends on its operand order.
    const T negative = -L::quiet_NaN();
    const T payload = std::bit_cast<T>(static_cast<U>(std::bit_cast<U>(L::quiet_NaN()) | U(0x15)));
    const T negative_payload = -payload;
    for (std::size_t n : {1u, 33u, 4097u, 100003u}) {
        const auto base = random_values<T>(n, n + 5);
        const auto other = random_values<T>(n, n + 6);
        std::vector<std::vector<T>> cases;  // with a NaN element; the last one +inf and -inf
        for (T a : {negative, payload, negative_payload}) {
            auto v = base;
            v[n / 3] = a;
            if (n > 1) v[n - 1] = a == negative ? L::quiet_NaN() : negative;
            cases.push_back(v);
        }
        if (n > 1) {
            auto v = base;
            v[0] = L::infinity();
            v[n - 1] = -L::infinity();
            cases.push_back(v);
        }
        for (std::size_t k = 0; k < cases.size(); ++k)
            for (precision p : {precision::deterministic, precision::compensated})
                for (int threads : {0, 1, 3}) {
                    const options o{.threads = threads, .precision = p};
                    const std::span<const T> x(cases[k]), y(other);
                    INFO("n " << n << ", case " << k << ", " << name(p) << ", threads " << threads);
                    CHECK(bits_of(run(x, sum, o)) == bits_of(L::quiet_NaN()));
                    CHECK(bits_of(run(x, wide_sum, o)) == bits_of(std::numeric_limits<wide_t<T>>::quiet_NaN()));
                    if (k == 3) continue;  // +inf and -inf: their squares, magnitudes and products need not cancel
                    CHECK(bits_of(run(x, sumsq, o)) == bits_of(L::quiet_NaN()));
                    CHECK(bits_of(run(x, asum, o)) == bits_of(L::quiet_NaN()));
                    CHECK(bits_of(run2(x, y, dot, o)) == bits_of(L::quiet_NaN()));
                }
    }
}

TEMPLATE_TEST_CASE("nansum and nanmax skip NaN as NumPy does, and no number at all gives +0.0 and NaN", "[float]",
                   float, double) {
    using T = TestType;
    using L = std::numeric_limits<T>;
    const std::vector<T> none;
    CHECK(bits_of(run(none, nansum)) == bits_of(T(-0.0)));  // the identity, as sum
    CHECK(oracle::is_nan(run(none, nanmax)));
    for (std::size_t n : {1u, 5u, 4097u, 70001u}) {
        INFO("n " << n);
        std::vector<T> nans(n, L::quiet_NaN());
        if (n > 1) nans[n / 2] = -L::quiet_NaN();
        CHECK(bits_of(run(nans, nansum)) == bits_of(T(0.0)));
        CHECK(bits_of(run(nans, nanmax)) == bits_of(L::quiet_NaN()));  // canonical
        std::vector<T> v = nans;
        v[n - 1] = -L::infinity();
        CHECK(run(v, nanmax) == -L::infinity());
        CHECK(run(v, nansum) == -L::infinity());
        v[0] = T(-0.0);
        CHECK(bits_of(run(v, nanmax)) == bits_of(T(-0.0)));
        if (n > 2) {
            v[1] = L::infinity();
            CHECK(oracle::is_nan(run(v, nansum)));  // +inf + -inf, as NumPy
            CHECK(run(v, nanmax) == L::infinity());
        }
    }
}

TEMPLATE_TEST_CASE("nansum of NaNs alone is +0.0 in the fixed order too", "[precision][float]", float, double) {
    using T = TestType;
    for (std::size_t n : {1u, 5u, 4097u, 70001u})
        for (precision p : {precision::deterministic, precision::compensated}) {
            INFO("n " << n << ", " << name(p));
            const std::vector<T> nans(n, std::numeric_limits<T>::quiet_NaN());
            CHECK(bits_of(run(nans, nansum, {.precision = p})) == bits_of(T(0.0)));
            CHECK(bits_of(run(nans, nanmax, {.precision = p})) == bits_of(std::numeric_limits<T>::quiet_NaN()));
        }
}

TEST_CASE("precision: exact operations ignore it and other float reductions refuse it", "[precision][errors]") {
    const auto f = random_values<float>(70001, 43);
    const auto i = random_values<std::int32_t>(70001, 44);
    for (precision p : {precision::deterministic, precision::compensated}) {
        const options o{.precision = p};
        CHECK(same(run(f, argmin, o), run(f, argmin)));
        CHECK(same(run(f, preduce::max, o), run(f, preduce::max)));
        CHECK(run(f, count_if(greater(0.0f)), o) == run(f, count_if(greater(0.0f))));
        CHECK(run(i, sum, o) == run(i, sum));
        CHECK_THROWS_AS(run(f, moments, o), preduce::invalid_argument);
        CHECK_THROWS_AS(run(f, mean, o), preduce::invalid_argument);
        CHECK_THROWS_AS(run(f, prod, o), preduce::invalid_argument);
        CHECK(run(f, minmax, o) == run(f, minmax));
        CHECK_THROWS_WITH(run(f, moments, o), Catch::Contains("precision::"));
    }
}

TEMPLATE_TEST_CASE("ill-conditioned sums: compensated is accurate whatever the condition number", "[precision][accuracy]",
                   float, double) {
    using T = TestType;
    constexpr long double u = std::numeric_limits<T>::epsilon() / 2;
    std::mt19937_64 rng(seed() ^ 0xC0FFEE);
    for (int magnitude : {4, 8, 12, 16}) {
        for (std::size_t n : {1000u, 100003u}) {
            // Pairs +x, -x of large magnitude in random order, plus small values: the exact sum
            // is the sum of the small ones, and sum|x| / |sum| reaches ~10^magnitude.
            std::vector<T> v;
            std::uniform_real_distribution<double> big(1.0, 2.0), small(-1.0, 1.0);
            const double scale = std::pow(10.0, magnitude) / static_cast<double>(n);
            for (std::size_t k = 0; k < n / 2; ++k) {
                const T x = static_cast<T>(big(rng) * scale * static_cast<double>(n) / 100.0);
                v.push_back(x);
                v.push_back(-x);
            }
            for (std::size_t k = 0; k < 16; ++k) v.push_back(static_cast<T>(small(rng)));
            std::shuffle(v.begin(), v.end(), rng);
            const auto ref = oracle::sum_with_bound(std::span<const T>(v), u);
            long double abs_sum = 0;
            for (T x : v) abs_sum += std::fabs(static_cast<long double>(x));
            const T got = run(v, sum, {.precision = precision::compensated});
            INFO("10^" << magnitude << " n " << v.size() << " exact " << static_cast<double>(ref.exact) << " got "
                       << static_cast<double>(got) << " condition " << static_cast<double>(abs_sum / std::fabs(ref.exact)));
            const long double k = static_cast<long double>(v.size());
            CHECK(std::fabs(static_cast<long double>(got) - ref.exact) <=
                  2 * u * std::fabs(ref.exact) + 4 * k * u * u * abs_sum);
            check_float_sum<T>(run(v, sum, {.precision = precision::deterministic}), std::span<const T>(v), u, "deterministic");
            check_float_sum<T>(run(v, sum), std::span<const T>(v), u, "fast");
        }
    }
}
