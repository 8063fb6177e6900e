// Why the compensated double sum ran slower on host cores than the compensated double sumsq,
// which does more work per element. One thread, 2^25 doubles (256 MiB, out of cache), the
// block values of precision::compensated, each form timed in turn, median of 15 rounds:
//   library sum     det::host_block_values for sum_reducer<double> (the AVX-512 or AVX2 clone;
//                   with GCC, two_sum_row: each vector of x loaded once)
//   library sumsq   the same for sumsq_reducer<double>
//   two loads       the sum's TwoSum loop on GCC vectors of 8 doubles with x read from memory,
//                   as the library's lane loop was written before two_sum_row
// Written with x read from memory, GCC folds the load of x into the add s = a + x and loads x
// again for x - (s - a): two 64-byte loads an element vector, where sumsq (x * x is in a
// register) has one. Every form checks its block values against the library's, bit for bit.
// Build (GCC, x86-64 with AVX-512; from the repository root, after configuring build/):
//   g++ -O3 -DNDEBUG -std=c++20 -fopenmp-simd -Iinclude -Ibuild/include -Ibackends/host_simd/include -Isrc
//       bench/studies/compensated_double_loads.cpp -o compensated_double_loads   (one line)
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "preduce/host_simd/fixed_order_blocks.hpp"
#include "timing/interleaved_samples.hpp"

namespace {

using preduce::precision;
namespace det = preduce::detail::det;
using value = det::value_t<precision::compensated, double>;
constexpr std::size_t lanes = det::lanes;
typedef double v8 __attribute__((vector_size(64)));

// The block values of src's full blocks [0, m), TwoSum on vectors of 8 lanes, x read from memory.
__attribute__((target("avx512f,avx512vl"), flatten)) void two_load_blocks(const double* src, std::size_t m, value* out) {
    for (std::size_t b = 0; b < m; ++b) {
        double sum[lanes], err[lanes];
        for (std::size_t j = 0; j < lanes; ++j) {
            sum[j] = -0.0;  // the identity (zero<compensated, double>)
            err[j] = 0.0;
        }
        for (std::size_t i = b * det::block; i < (b + 1) * det::block; i += lanes) {
            preduce::detail::prefetch_ahead(src, i, lanes * sizeof(double));
            for (std::size_t q = 0; q < lanes; q += 8) {
                v8 x, s, e;
                std::memcpy(&x, src + i + q, sizeof x);
                std::memcpy(&s, sum + q, sizeof s);
                std::memcpy(&e, err + q, sizeof e);
                const v8 t = s + x, bp = t - s;  // two_sum(s, x), as order.hpp spells it
                e = e + ((s - (t - bp)) + (x - bp));
                std::memcpy(sum + q, &t, sizeof t);
                std::memcpy(err + q, &e, sizeof e);
            }
        }
        value lane[lanes];
        for (std::size_t j = 0; j < lanes; ++j) lane[j] = value{sum[j], err[j]};
        for (std::size_t w = lanes / 2; w > 0; w /= 2)
            for (std::size_t j = 0; j < w; ++j) lane[j] = det::merge<precision::compensated, double>(lane[j], lane[j + w]);
        out[b] = lane[0];
    }
}

} // namespace

int main() {
    if (!__builtin_cpu_supports("avx512f")) {
        std::puts("compensated_double_loads: needs AVX-512");
        return 0;
    }
    const std::size_t n = std::size_t{1} << 25, m = n / det::block;
    std::vector<double> x(n);
    std::mt19937_64 g(1);
    std::uniform_real_distribution<double> d(-1, 1);
    for (double& e : x) e = d(g);
    std::vector<value> lib(m), sq(m), two(m);
    const preduce::sum_reducer<double> sum;
    const preduce::sumsq_reducer<double> sumsq;
    std::vector<double> t[3];
    std::size_t calls = 0;  // seconds_of's call index (not used)
    const auto run = [&](int k, auto&& f) {
        auto call = [&](std::size_t) { f(); };
        t[k].push_back(1e3 * preduce_timing::seconds_of(call, calls, 1));
    };
    for (int round = 0; round < 15; ++round) {
        run(0, [&] { det::host_block_values<precision::compensated>(sum, x.data(), n, 0, m, lib.data(), true); });
        run(1, [&] { det::host_block_values<precision::compensated>(sumsq, x.data(), n, 0, m, sq.data(), true); });
        run(2, [&] { two_load_blocks(x.data(), m, two.data()); });
    }
    const auto same = [&](const std::vector<value>& v) {
        return std::memcmp(v.data(), lib.data(), m * sizeof(value)) == 0 ? "bits as the library's" : "BITS DIFFER";
    };
    const char* names[] = {"library sum", "library sumsq", "two loads"};
    const char* bits[] = {"", "(its own sums)", same(two)};
    std::printf("2^25 doubles, one thread, compensated block values, median of 15 rounds in turn\n");
    for (int k = 0; k < 3; ++k) std::printf("  %-14s %7.2f ms  %s\n", names[k], preduce_timing::median_of(t[k]), bits[k]);
}
