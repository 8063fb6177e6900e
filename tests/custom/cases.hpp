#pragma once
// The ONE body of header-only tests: user operations, transforms, fused tuples, two-input
// reductions, the narrow element types (narrow.hpp) and many results per call through a
// backend's own template (PREDUCE_CUSTOM_BACKEND::reduce, reduce_segments, reduce_batches),
// compiled by that backend's compiler (via_<backend>.cpp / .cu). Plain checks, no test
// framework: the same file must go through nvcc. Every result is compared with a plain
// loop written here, not with the library.
//
// The including file defines PREDUCE_CUSTOM_BACKEND (a namespace), and before including:
//   std::vector<std::string> custom_test::residencies();              where data may live
//   const void* custom_test::put(const void* host, std::size_t bytes, int slot, std::size_t residency);
//   bool custom_test::usable(std::string& why);                       false: skip (exit 77)
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "custom/ops.hpp"
#include "custom/plain_checks.hpp"
#include "preduce/custom.hpp"
#include "preduce/ops.hpp"

#define UNDER_TEST PREDUCE_CUSTOM_BACKEND

#include "custom/narrow.hpp"

namespace custom_test {

inline void run_all() {
    std::mt19937_64 rng(seed());
    const std::size_t largest = sizes.back();
    std::vector<mat2> mats(largest);
    std::vector<std::uint32_t> words(largest);
    std::vector<float> small(largest);
    std::vector<double> weights(largest);
    std::vector<std::uint64_t> big(largest);
    std::vector<std::int32_t> ints(largest);
    for (std::size_t i = 0; i < largest; ++i) {
        // Unitriangular (determinant 1): products stay invertible mod 2^32 instead of
        // collapsing to the zero matrix, as products of random matrices mod 2^32 do.
        // Upper and lower alternate (and r is odd), so neighbours never commute.
        const auto r = static_cast<std::uint32_t>(rng()) | 1u;
        mats[i] = i % 2 == 0 ? mat2{1, r, 0, 1} : mat2{1, 0, r, 1};
        words[i] = static_cast<std::uint32_t>(rng());
        small[i] = static_cast<float>(static_cast<int>(rng() % 17) - 8);  // exact sums in float up to 2^21 elements
        weights[i] = static_cast<double>(static_cast<int>(rng() % 9) - 4);
        big[i] = rng();
        ints[i] = static_cast<std::int32_t>(rng());
    }
    const std::vector<preduce::options> option_sets = {{}, {.threads = 1}, {.threads = 3}};

    for (std::size_t where = 0; where < residencies().size(); ++where)
        for (std::size_t n : sizes)
            for (const auto& opts : option_sets) {
                context = "n " + std::to_string(n) + ", " + residencies()[where] + " memory, threads " +
                          std::to_string(opts.threads) + ", seed " + std::to_string(seed());
                const bool small_sums_exact = n <= (std::size_t{1} << 21);

                // Non-commutative: the in-order product and hash, nothing else.
                mat2 want_m = matmul::identity(), reversed = matmul::identity();
                hash_state want_h = sequence_hash::identity();
                for (std::size_t i = 0; i < n; ++i) {
                    want_m = matmul::combine(want_m, mats[i]);
                    reversed = matmul::combine(mats[i], reversed);
                    want_h = {want_h.hash * sequence_hash::base + words[i] + 1, want_h.power * sequence_hash::base};
                }
                if (n >= 2) CUSTOM_CHECK(!(want_m == reversed));  // the op really is order-sensitive here
                CUSTOM_CHECK(UNDER_TEST::reduce(on(mats, 0, where), n, matmul{}, opts) == want_m);
                CUSTOM_CHECK(UNDER_TEST::reduce(on(words, 0, where), n, sequence_hash{}, opts) == want_h);

                // Commutative user operations.
                sum_maxabs want_s{-0.0f, 0.0f};
                std::uint64_t want_lo = 0, want_hi = 0;  // a 128-bit sum, carried by hand
                std::uint64_t want_c = 0, want_x = 0;
                for (std::size_t i = 0; i < n; ++i) {
                    want_s = {want_s.sum + small[i], std::fmax(want_s.maxabs, std::fabs(small[i]))};
                    want_lo += big[i];
                    want_hi += want_lo < big[i] ? 1u : 0u;
                    want_c += ints[i] > 12345;
                    want_x ^= big[i];
                }
                if (small_sums_exact) CUSTOM_CHECK(UNDER_TEST::reduce(on(small, 0, where), n, sum_and_maxabs{}, opts) == want_s);
                const u128 got_w = UNDER_TEST::reduce(on(big, 0, where), n, wide_add{}, opts);
                CUSTOM_CHECK(got_w.lo == want_lo && got_w.hi == want_hi);
                CUSTOM_CHECK(UNDER_TEST::reduce(on(ints, 0, where), n, count_above{12345}, opts) == static_cast<double>(want_c));
                CUSTOM_CHECK(UNDER_TEST::reduce(on(big, 0, where), n, bit_xor{}, opts) == want_x);

                // Transforms: x^2 in int64 (wrapping), and x * w over two inputs read side by side.
                std::uint64_t want_sq = 0;
                double want_wsum = 0;
                std::uint32_t want_dot = 0;
                for (std::size_t i = 0; i < n; ++i) {
                    want_sq += static_cast<std::uint64_t>(square{}(ints[i]));
                    want_wsum += static_cast<double>(small[i]) * weights[i];
                    want_dot += static_cast<std::uint32_t>(ints[i]) * words[i];
                }
                CUSTOM_CHECK(UNDER_TEST::reduce(on(ints, 0, where), n, preduce::transform(square{}, preduce::sum), opts) ==
                             static_cast<std::int64_t>(want_sq));
                CUSTOM_CHECK(UNDER_TEST::reduce(on(small, 0, where), on(weights, 1, where), n,
                                                preduce::transform(weighted{}, preduce::sum), opts) == want_wsum);
                // dot over int32 x uint32 is not a built-in (one element type); the same
                // through a user transform of the pair:
                const auto mixed = preduce::transform(mixed_product{}, preduce::sum);
                CUSTOM_CHECK(UNDER_TEST::reduce(on(ints, 0, where), on(words, 1, where), n, mixed, opts) == want_dot);

                // Built-ins through the header-only template: dot, minmax, moments.
                std::uint32_t want_self_dot = 0;
                std::uint32_t lo = UINT32_MAX, hi = 0;
                for (std::size_t i = 0; i < n; ++i) {
                    want_self_dot += words[i] * words[i];
                    lo = words[i] < lo ? words[i] : lo;
                    hi = words[i] > hi ? words[i] : hi;
                }
                CUSTOM_CHECK(UNDER_TEST::reduce(on(words, 0, where), on(words, 1, where), n, preduce::dot, opts) ==
                             want_self_dot);
                const auto mm = UNDER_TEST::reduce(on(words, 0, where), n, preduce::minmax, opts);
                CUSTOM_CHECK(mm.min == lo && mm.max == hi);
                if (small_sums_exact) {
                    double s = 0;
                    for (std::size_t i = 0; i < n; ++i) s += small[i];
                    const auto mo = UNDER_TEST::reduce(on(small, 0, where), n, preduce::moments, opts);
                    CUSTOM_CHECK(mo.count == n);
                    CUSTOM_CHECK(n == 0 ? std::isnan(mo.mean) : std::fabs(mo.mean - s / static_cast<double>(n)) <= 1e-12);
                }

                // Fused tuples: commutative parts (one SIMD pass), and with a non-commutative part
                // (then the whole tuple keeps operand order).
                std::uint32_t want_sum = 0, want_max = 0;
                std::uint64_t want_pos = 0;
                for (std::size_t i = 0; i < n; ++i) {
                    want_sum += words[i];
                    want_max = words[i] > want_max ? words[i] : want_max;
                    want_pos += words[i] > 0x80000000u;
                }
                const auto [f_sum, f_max, f_pos] = UNDER_TEST::reduce(
                    on(words, 0, where), n,
                    preduce::fused(preduce::sum, preduce::max, preduce::count_if(preduce::greater(0x80000000u))), opts);
                CUSTOM_CHECK(f_sum == want_sum && f_max == want_max && f_pos == want_pos);
                const auto [o_hash, o_sum, o_max] =
                    UNDER_TEST::reduce(on(words, 0, where), n, preduce::fused(sequence_hash{}, preduce::sum, preduce::max), opts);
                CUSTOM_CHECK(o_hash == want_h && o_sum == want_sum && o_max == want_max);
            }

    // The narrow element types (narrow.hpp).
    for (std::size_t where = 0; where < residencies().size(); ++where) run_narrow(where, option_sets);

    // Many results per call with non-commutative operations: each segment's product and hash
    // in order, segments of every size at the boundaries above, empty ones included.
    std::vector<std::uint64_t> offsets{0};
    for (std::size_t k : sizes)
        if (k <= 70000) {
            offsets.push_back(offsets.back() + k);
            offsets.push_back(offsets.back());  // an empty segment after each
        }
    const std::size_t m = offsets.size() - 1, total = offsets.back();
    for (std::size_t where = 0; where < residencies().size(); ++where)
        for (const auto& opts : option_sets) {
            context = "segments, " + residencies()[where] + " memory, threads " + std::to_string(opts.threads);
            std::vector<mat2> got_m(m);
            std::vector<hash_state> got_h(m);
            UNDER_TEST::reduce_segments(on(mats, 0, where), total, offsets.data(), m, matmul{}, got_m.data(), opts);
            UNDER_TEST::reduce_segments(on(words, 0, where), total, offsets.data(), m, sequence_hash{}, got_h.data(), opts);
            for (std::size_t s = 0; s < m; ++s) {
                mat2 want_m = matmul::identity();
                hash_state want_h = sequence_hash::identity();
                for (std::size_t i = offsets[s]; i < offsets[s + 1]; ++i) {
                    want_m = matmul::combine(want_m, mats[i]);
                    want_h = {want_h.hash * sequence_hash::base + words[i] + 1, want_h.power * sequence_hash::base};
                }
                CUSTOM_CHECK(got_m[s] == want_m);
                CUSTOM_CHECK(got_h[s] == want_h);
            }
            // Fixed-size batches of 1000: the hash of every batch, in order.
            const std::size_t k = 1000, batches = 70;
            std::vector<hash_state> got_b(batches);
            UNDER_TEST::reduce_batches(on(words, 0, where), k * batches, k, sequence_hash{}, got_b.data(), opts);
            for (std::size_t b = 0; b < batches; ++b) {
                hash_state want = sequence_hash::identity();
                for (std::size_t i = b * k; i < (b + 1) * k; ++i)
                    want = {want.hash * sequence_hash::base + words[i] + 1, want.power * sequence_hash::base};
                CUSTOM_CHECK(got_b[b] == want);
            }
        }
}

} // namespace custom_test

int main() {
    std::string why;
    if (!custom_test::usable(why)) {
        std::printf("skipped: %s\n", why.c_str());
        return 77;
    }
    custom_test::run_all();
    std::printf("%ld checks, %d failed (seed %llu)\n", custom_test::checks, custom_test::failures,
                static_cast<unsigned long long>(custom_test::seed()));
    return custom_test::failures == 0 ? 0 : 1;
}
