// Sizes one below, at and one above k * B (k = 1, 2, 3) for every block size B the CPU
// backends cut their input by: 32 (SIMD lane groups, the deterministic order's lanes),
// 4096 (the deterministic order's blocks), 16384 (OpenMP and Kokkos chunks) and 32768
// (OpenMP's parallel threshold). Every op, every element type, every CPU backend (OpenMP
// with its default team and with 3 threads, which splits chunks unevenly), against the
// oracle and seq; floating-point deterministic and compensated sums bit for bit against
// seq. The shared body (backend_cases.cpp) already runs the sizes listed in `covered`,
// so they are left out here.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <limits>
#include <cstdio>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "preduce/preduce.hpp"
#include "support/checks.hpp"
#include "support/data.hpp"
#include "support/under_test.hpp"

using namespace preduce;
using namespace preduce::test;

namespace {
backend current = backend::seq;
} // namespace

// The shared checks (checks.hpp) run on under_test(): here, whichever backend the loop below
// has set, on host data as given.
backend preduce::test::under_test() { return current; }
const void* preduce::test::stage(const void* data, std::size_t, int) { return data; }
std::string preduce::test::residency() { return "host"; }

namespace {

std::vector<std::size_t> boundary_sizes() {
    // In backend_cases.cpp's size list.
    const std::set<std::size_t> covered = {31, 32, 33, 97, 4095, 4096, 4097, 32767, 32768, 32769, 65537};
    std::set<std::size_t> out;
    for (std::size_t block : {32u, 4096u, 16384u, 32768u})
        for (std::size_t k : {1u, 2u, 3u})
            for (std::size_t n : {k * block - 1, k * block, k * block + 1})
                if (covered.count(n) == 0) out.insert(n);
    return {out.begin(), out.end()};
}

struct config {
    backend b;
    options opts;
};

std::vector<config> cpu_configs() {
    std::vector<config> out;
    for (backend b : available_backends()) {
        if (b == backend::cuda) continue;
        out.push_back({b, {}});
        if (b == backend::openmp) out.push_back({b, {.threads = 3}});
    }
    return out;
}

template <class T>
std::uint64_t bits(T v) {
    if constexpr (sizeof(T) == 4) return std::bit_cast<std::uint32_t>(v);
    else return std::bit_cast<std::uint64_t>(v);
}

// prod alone on data whose product stays finite and non-degenerate (check_every_op would
// repeat every other op on these data too, tripling the run time for nothing new).
template <class T>
void check_prod(std::span<const T> x, backend b, const options& opts) {
    const T got = reduce(b, x, prod, opts);
    INFO(name(b) << ", n " << x.size() << ", threads " << opts.threads << ", prod " << show(got) << ", seed " << seed());
    if constexpr (std::is_floating_point_v<T>) {
        const auto ref = oracle::prod_with_bound(x, std::numeric_limits<T>::epsilon() / 2);
        CHECK(std::fabs(static_cast<long double>(got) - ref.exact) <= ref.bound);
    } else {
        CHECK(got == oracle::wrapped_prod<T>(x));
    }
}

} // namespace

#define PREDUCE_TEST_TYPES std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double

TEMPLATE_TEST_CASE("every CPU backend and op at k*B-1, k*B, k*B+1 for every block size B", "[boundaries]",
                   PREDUCE_TEST_TYPES) {
    using T = TestType;
    const auto sizes = boundary_sizes();
    const auto data = random_values<T>(sizes.back() + 1, 11);
    const auto prod_data = product_values<T>(sizes.back(), 12);
    for (const config& c : cpu_configs()) {
        current = c.b;
        for (std::size_t n : sizes) {
            check_every_op<T>(std::span<const T>(data.data(), n), false, c.opts);
            check_every_op<T>(std::span<const T>(data.data() + 1, n), false, c.opts);  // an unaligned start
            check_prod<T>(std::span<const T>(prod_data.data(), n), c.b, c.opts);
        }
    }
}

TEMPLATE_TEST_CASE("fixed-order float sums at every block boundary: seq's bits on every CPU backend and thread count",
                   "[boundaries][precision]", float, double) {
    using T = TestType;
    const auto sizes = boundary_sizes();
    const auto data = random_values<T>(sizes.back(), 13);
    for (std::size_t n : sizes) {
        const std::span<const T> x(data.data(), n);
        for (precision p : {precision::deterministic, precision::compensated}) {
            const T want_sum = reduce(backend::seq, x, sum, {.precision = p});
            const T want_sumsq = reduce(backend::seq, x, sumsq, {.precision = p});
            const double want_wide = reduce(backend::seq, x, wide_sum, {.precision = p});
            for (const config& c : cpu_configs())
                for (int threads : {0, 1, 2, 3}) {
                    const options o{.threads = threads, .precision = p};
                    INFO(name(c.b) << ", n " << n << ", " << name(p) << ", threads " << threads << ", seed " << seed());
                    CHECK(bits(reduce(c.b, x, sum, o)) == bits(want_sum));
                    CHECK(bits(reduce(c.b, x, sumsq, o)) == bits(want_sumsq));
                    CHECK(bits(reduce(c.b, x, wide_sum, o)) == bits(want_wide));
                }
        }
    }
}
