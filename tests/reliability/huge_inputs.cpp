// 2^31+5 and 2^32+7 elements on the CPU backends (ctest label `large`: 16 GiB of host
// memory, about two minutes on a 2-core x86 machine). Sizes and indices are 64-bit all the
// way through: a 32-bit count, index or chunk number anywhere (a lane's counter, an
// iteration count, a block index) shows as a wrong sum, count or argmin/argmax index here.
//
// One buffer of 2^32+7 int32 (16 GiB) is filled once with a pattern whose sum and counts
// have closed forms, and every backend reduces two prefixes of it; the extremes are
// marked past 2^31 (first prefix) and past 2^32 (whole buffer), each with a later tie that
// must lose. Segments of it follow: one longer than 2^32 elements with its extremes past
// in-segment index 2^31, then 2^31+1 one-element batches whose results fill the buffer's
// second half. Then the first 2^31+5 elements are rewritten as floats (the same memory, so
// the peak stays at 16 GiB) for the fixed-order sums, which must have the same bits on
// every backend as the plain serial reference of detail/algorithm/fixed_order/order.hpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/preduce.hpp"
#include "support/catch_session.hpp"

using namespace preduce;

namespace {

constexpr std::size_t n_first = (std::size_t{1} << 31) + 5;
constexpr std::size_t n_whole = (std::size_t{1} << 32) + 7;
constexpr std::size_t buffer_bytes = n_whole * sizeof(std::int32_t);

// x[i] = i mod 1009 - 500: a prime period, so no two 4096- or 16384-element blocks see the
// same values, and a period sums to 4036, not 0, so a lost or doubled block changes the sum.
constexpr std::int64_t period = 1009, shift = 500;
std::int32_t pattern(std::size_t i) { return static_cast<std::int32_t>(static_cast<std::int64_t>(i % period) - shift); }

std::int64_t pattern_sum(std::size_t n) {
    const auto partial = [](std::int64_t m) { return m * (m - 1) / 2 - shift * m; };  // sum over k < m of k - shift
    return static_cast<std::int64_t>(n / period) * partial(period) + partial(static_cast<std::int64_t>(n % period));
}

// Elements > 0 among the first n: k - shift > 0 for k in [shift + 1, period).
std::uint64_t pattern_positive(std::size_t n) {
    const auto partial = [](std::int64_t m) { return static_cast<std::uint64_t>(std::max<std::int64_t>(0, m - shift - 1)); };
    return static_cast<std::uint64_t>(n / period) * partial(period) + partial(static_cast<std::int64_t>(n % period));
}

// The 16 GiB buffer, allocated once for the whole run (malloc creates the objects the int32
// and then the float phase write). Filling it is mostly page faults: 25-75 s on a 2-core
// x86 machine, more than all the reductions, and slower still with MADV_HUGEPAGE (direct
// compaction).
void* allocated = nullptr;
void* buffer() {
    if (allocated == nullptr) allocated = std::malloc(buffer_bytes);
    return allocated;
}

// f(begin, end) over [0, n), one contiguous range per hardware thread.
template <class F>
void in_parallel(std::size_t n, F f) {
    const std::size_t k = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < k; ++t) pool.emplace_back([=] { f(n * t / k, n * (t + 1) / k); });
    for (auto& th : pool) th.join();
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The buffer holding the int32 pattern over all 2^32+7 elements, filled on first use and
// again after a test case wrote over it (one that calls overwritten()).
bool holds_pattern = false;
std::int32_t* int32_pattern() {
    auto* x = static_cast<std::int32_t*>(buffer());
    if (x == nullptr || holds_pattern) return x;
    const auto t0 = std::chrono::steady_clock::now();
    in_parallel(n_whole, [x](std::size_t begin, std::size_t end) {
        auto k = static_cast<std::int64_t>(begin % period);
        for (std::size_t i = begin; i < end; ++i) {
            x[i] = static_cast<std::int32_t>(k - shift);
            if (++k == period) k = 0;
        }
    });
    std::printf("filled %zu int32 in %.2f s\n", n_whole, seconds_since(t0));
    holds_pattern = true;
    return x;
}
void overwritten() { holds_pattern = false; }

std::vector<backend> cpu_backends() {
    std::vector<backend> out;
    for (backend b : available_backends())
        if (b != backend::cuda) out.push_back(b);
    return out;
}

// Runs f() on backend b, prints its time, returns its result.
template <class F>
auto timed(backend b, const char* what, std::size_t bytes, F f) {
    const auto t0 = std::chrono::steady_clock::now();
    auto r = f();
    const double s = seconds_since(t0);
    std::printf("  %-7s %-22s %6.2f s  %5.1f GB/s\n", std::string(name(b)).c_str(), what, s, static_cast<double>(bytes) / s / 1e9);
    std::fflush(stdout);
    return r;
}

// The extremes of one prefix: INT_MIN at lo and INT_MAX at hi, and the same values again
// at lo_tie > lo and hi_tie > hi, where the lowest index must win.
struct marks {
    std::size_t lo, lo_tie, hi, hi_tie;
    std::vector<std::size_t> all() const { return {lo, lo_tie, hi, hi_tie}; }
};

void set_marks(std::int32_t* x, const marks& m) {
    x[m.lo] = x[m.lo_tie] = INT_MIN;
    x[m.hi] = x[m.hi_tie] = INT_MAX;
}

void clear_marks(std::int32_t* x, const marks& m) {
    for (std::size_t i : m.all()) x[i] = pattern(i);
}

void check_int32_prefix(const std::int32_t* x, std::size_t n, const marks& m) {
    std::int64_t wide = pattern_sum(n);
    std::uint64_t positive = pattern_positive(n);
    for (std::size_t i : m.all()) {
        wide -= pattern(i);
        positive -= pattern(i) > 0;
    }
    wide += 2 * static_cast<std::int64_t>(INT_MIN) + 2 * static_cast<std::int64_t>(INT_MAX);
    positive += 2;  // the two INT_MAX
    const auto wrapped = static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(wide)));
    const std::size_t bytes = n * sizeof(std::int32_t);
    std::printf("int32, n = %zu (%.2f GiB), extremes at %zu and %zu\n", n, static_cast<double>(bytes) / (1u << 30), m.lo, m.hi);
    for (backend b : cpu_backends()) {
        INFO(name(b) << ", n = " << n);
        CHECK(timed(b, "sum (wraps)", bytes, [&] { return reduce(b, x, n, sum); }) == wrapped);
        CHECK(timed(b, "wide_sum", bytes, [&] { return reduce(b, x, n, wide_sum); }) == wide);
        const auto amin = timed(b, "argmin", bytes, [&] { return reduce(b, x, n, argmin); });
        CHECK(amin.value == INT_MIN);
        CHECK(amin.index == m.lo);
        const auto amax = timed(b, "argmax", bytes, [&] { return reduce(b, x, n, argmax); });
        CHECK(amax.value == INT_MAX);
        CHECK(amax.index == m.hi);
        CHECK(timed(b, "count_if(greater(0))", bytes, [&] { return reduce(b, x, n, count_if(greater(0))); }) == positive);
        CHECK(timed(b, "min", bytes, [&] { return reduce(b, x, n, preduce::min); }) == INT_MIN);
        CHECK(timed(b, "max", bytes, [&] { return reduce(b, x, n, preduce::max); }) == INT_MAX);
    }
}

template <class T>
std::uint64_t bits(T v) {
    if constexpr (sizeof(T) == 4) return std::bit_cast<std::uint32_t>(v);
    else return std::bit_cast<std::uint64_t>(v);
}

} // namespace

TEST_CASE("2^31+5 and 2^32+7 int32: sums, counts, extremes and indices past 2^31 and 2^32", "[large]") {
    std::int32_t* x = int32_pattern();
    REQUIRE(x != nullptr);

    const std::size_t two31 = std::size_t{1} << 31, two32 = std::size_t{1} << 32;
    const marks first{two31, two31 + 3, two31 + 1, two31 + 4};  // n_first - 1 == 2^31 + 4
    set_marks(x, first);
    check_int32_prefix(x, n_first, first);
    clear_marks(x, first);

    const marks whole{two32 + 1, two32 + 5, two32 + 2, two32 + 6};  // n_whole - 1 == 2^32 + 6
    set_marks(x, whole);
    check_int32_prefix(x, n_whole, whole);
    clear_marks(x, whole);
}

TEST_CASE("segments past 2^31: one segment of 2^32-2 elements, and 2^31+1 segments", "[large][segments]") {
    std::int32_t* x = int32_pattern();
    REQUIRE(x != nullptr);
    const std::size_t two32 = std::size_t{1} << 32;
    // Segments [0,3) [3,3) [3,2^32+1) [2^32+1,2^32+7): the third is longer than 2^32 - 3, and
    // its extremes sit at in-segment indices past 2^31 (INT_MAX at 2^32 - 3, INT_MIN at
    // 2^31 + 7 with a later tie that must lose).
    const std::vector<std::uint64_t> offsets{0, 3, 3, two32 + 1, n_whole};
    const std::size_t hi = two32, lo = (std::size_t{1} << 31) + 10, lo_tie = lo + 1000;
    const std::int32_t saved_hi = x[hi], saved_lo = x[lo], saved_tie = x[lo_tie];
    x[hi] = INT_MAX;
    x[lo] = x[lo_tie] = INT_MIN;
    const auto span_sum = [&](std::size_t b, std::size_t e) {
        std::int64_t s = pattern_sum(e) - pattern_sum(b);
        for (std::size_t i : {hi, lo, lo_tie})
            if (i >= b && i < e) s += static_cast<std::int64_t>(x[i]) - pattern(i);
        return s;
    };
    const std::size_t bytes = n_whole * sizeof(std::int32_t);
    std::printf("int32 segments over %zu elements, the longest %zu\n", n_whole, two32 - 2);
    for (backend b : cpu_backends()) {
        INFO(name(b));
        const auto wide = timed(b, "segments wide_sum", bytes, [&] { return reduce_segments(b, std::span(x, n_whole), offsets, wide_sum); });
        REQUIRE(wide.size() == 4);
        for (std::size_t s = 0; s < 4; ++s) CHECK(wide[s] == span_sum(offsets[s], offsets[s + 1]));
        const auto amax = timed(b, "segments argmax", bytes, [&] { return reduce_segments(b, std::span(x, n_whole), offsets, argmax); });
        REQUIRE(amax.size() == 4);
        CHECK(amax[1].index == no_index);
        CHECK(amax[2].value == INT_MAX);
        CHECK(amax[2].index == hi - 3);
        const auto amin = timed(b, "segments argmin", bytes, [&] { return reduce_segments(b, std::span(x, n_whole), offsets, argmin); });
        CHECK(amin[2].value == INT_MIN);
        CHECK(amin[2].index == lo - 3);
        CHECK(amin[3].index == static_cast<std::uint64_t>(std::min_element(x + two32 + 1, x + n_whole) - (x + two32 + 1)));
    }
    x[hi] = saved_hi;
    x[lo] = saved_lo;
    x[lo_tie] = saved_tie;

    // 2^31 + 1 one-element batches, whose results (the same values) land in the buffer's
    // second half: every result index past 2^31 is written, and to the right place.
    const std::size_t m = (std::size_t{1} << 31) + 1;
    std::int32_t* out = x + m + 1;
    REQUIRE(out + m <= x + n_whole);
    overwritten();
    for (backend b : cpu_backends()) {
        INFO(name(b));
        in_parallel(m, [out](std::size_t begin, std::size_t end) { std::fill(out + begin, out + end, INT_MIN); });
        timed(b, "2^31+1 batches of 1", 2 * m * sizeof(std::int32_t),
              [&] { reduce_batches(b, x, m, 1, preduce::max, out); return 0; });
        std::atomic<std::size_t> wrong{0}, first_wrong{m};
        in_parallel(m, [&](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i)
                if (out[i] != pattern(i)) {
                    if (wrong++ == 0) first_wrong = i;
                }
        });
        INFO("first wrong result at " << first_wrong.load());
        CHECK(wrong.load() == 0);
    }
}

TEST_CASE("2^31+5 floats: fixed-order sums have the same bits on every backend, wide and compensated sums are accurate",
          "[large][precision]") {
    // The int32 buffer's first 8 GiB, rewritten as floats: k/4 for k = i mod 1013, exact in
    // float, so the exact sum has a closed form.
    auto* f = static_cast<float*>(buffer());
    REQUIRE(f != nullptr);
    overwritten();
    constexpr std::int64_t fperiod = 1013;
    in_parallel(n_first, [f](std::size_t begin, std::size_t end) {
        auto k = static_cast<std::int64_t>(begin % fperiod);
        for (std::size_t i = begin; i < end; ++i) {
            f[i] = static_cast<float>(k) * 0.25f;
            if (++k == fperiod) k = 0;
        }
    });
    const auto triangle = [](long double m) { return m * (m - 1) / 2; };
    const long double exact =
        0.25L * (static_cast<long double>(n_first / fperiod) * triangle(fperiod) + triangle(static_cast<long double>(n_first % fperiod)));
    const long double n = static_cast<long double>(n_first);
    const long double uf = std::ldexp(1.0L, -24), ud = std::ldexp(1.0L, -53);
    const std::size_t bytes = n_first * sizeof(float);
    std::printf("float, n = %zu (%.2f GiB), exact sum %.17Lg\n", n_first, static_cast<double>(bytes) / (1u << 30), exact);

    // The fixed order, computed one lane at a time without SIMD or threads: the reference the
    // host folds and the CUDA kernels must all reproduce.
    namespace fixed_order = preduce::detail::fixed_order;
    const auto t0 = std::chrono::steady_clock::now();
    const float plain = fixed_order::reduce_serial<precision::deterministic>(sum_reducer<float>{}, static_cast<const float*>(f), n_first);
    std::printf("  plain serial fixed order            %6.2f s\n", seconds_since(t0));
    // Each element meets at most block/lanes lane additions, 5 lane-tree and
    // ceil(log2(blocks)) block-tree additions: Higham's bound with that depth (all x >= 0).
    const long double depth = fixed_order::block / fixed_order::lanes + 5 + std::ceil(std::log2(static_cast<long double>(fixed_order::block_count(n_first))));
    INFO("plain " << plain << ", exact " << static_cast<double>(exact) << ", depth " << static_cast<double>(depth));
    CHECK(std::fabs(plain - exact) <= depth * uf * (1 + 2 * depth * uf) * exact);

    const float seq_compensated = reduce(backend::seq, f, n_first, sum, {.precision = precision::compensated});
    for (backend b : cpu_backends()) {
        INFO(name(b));
        const float d = timed(b, "deterministic sum", bytes, [&] {
            return reduce(b, f, n_first, sum, {.precision = precision::deterministic});
        });
        CHECK(bits(d) == bits(plain));
        // The same array as the second of two segments: the bits of reducing it alone.
        const std::vector<std::uint64_t> offsets{0, 0, n_first};
        const auto ds = timed(b, "deterministic segments", bytes, [&] {
            return reduce_segments(b, std::span<const float>(f, n_first), offsets, sum, {.precision = precision::deterministic});
        });
        REQUIRE(ds.size() == 2);
        CHECK(bits(ds[0]) == bits(-0.0f));  // the empty one: the sum identity, -0.0
        CHECK(bits(ds[1]) == bits(plain));
        const float c = timed(b, "compensated sum", bytes, [&] {
            return reduce(b, f, n_first, sum, {.precision = precision::compensated});
        });
        // Rounded once at the end, plus double-precision errors far below that.
        INFO("compensated " << c);
        CHECK(std::fabs(c - exact) <= 2 * uf * exact + 4 * n * ud * ud * exact);
        const double w = timed(b, "wide_sum (fast)", bytes, [&] { return reduce(b, f, n_first, wide_sum); });
        // Higham's bound in double: ~2.4e-7 relative here, while one lost 4096-block would
        // be ~2e-6 of the sum.
        INFO("wide_sum " << w);
        CHECK(std::fabs(w - exact) <= (n - 1) * ud * (1 + 2 * (n - 1) * ud) * exact);
        CHECK(bits(c) == bits(seq_compensated));
    }
}

// Skips (ctest's code 77) rather than letting the kernel kill the process where 16 GiB
// is not available.
int main(int argc, char* argv[]) {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::size_t kib = 0, available = 0;
    std::string unit;
    while (meminfo >> key >> kib >> unit)
        if (key == "MemAvailable:") available = kib << 10;
    const std::size_t needed = buffer_bytes + (std::size_t{1} << 30);
    bool listing = false;
    for (int i = 1; i < argc; ++i) listing = listing || std::string(argv[i]).rfind("--list", 0) == 0;
    if (!listing && available < needed) {
        std::printf("SKIPPED: needs %.1f GiB of available memory, this machine has %.1f GiB\n",
                    static_cast<double>(needed) / (1u << 30), static_cast<double>(available) / (1u << 30));
        return 77;
    }
    const int status = preduce::test::run_catch(argc, argv);
    std::free(allocated);
    return status;
}
