#pragma once
// The ONE body of header-only tests: user operations, transforms, fused tuples, two-input
// reductions, the narrow element types (narrow.hpp) and many results per call through a
// backend's own template (PREDUCE_CUSTOM_BACKEND::reduce, reduce_segments, reduce_batches),
// compiled by that backend's compiler (via_<backend>.cpp / .cu), as Catch2 cases. Every
// result is compared with a plain loop written here, not with the library.
//
// The including file defines PREDUCE_CUSTOM_BACKEND (a namespace), and before including:
//   std::vector<std::string> custom_test::residencies();              where data may live
//   const void* custom_test::put(const void* host, std::size_t bytes, int slot, std::size_t residency);
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "custom/ops.hpp"
#include "custom/support.hpp"
#include "preduce/custom.hpp"
#include "preduce/ops.hpp"

#define UNDER_TEST PREDUCE_CUSTOM_BACKEND

#include "custom/narrow.hpp"

namespace custom_test {

// The inputs every case reads, drawn once per process from the seed.
struct inputs {
    std::vector<mat2> mats;
    std::vector<std::uint32_t> words;
    std::vector<float> small;
    std::vector<double> weights;
    std::vector<std::uint64_t> big;
    std::vector<std::int32_t> ints;
};

inline const inputs& data() {
    static const inputs in = [] {
        std::mt19937_64 rng(seed());
        const std::size_t largest = sizes.back();
        inputs d;
        d.mats.resize(largest);
        d.words.resize(largest);
        d.small.resize(largest);
        d.weights.resize(largest);
        d.big.resize(largest);
        d.ints.resize(largest);
        for (std::size_t i = 0; i < largest; ++i) {
            // Unitriangular (determinant 1): products stay invertible mod 2^32 instead of
            // collapsing to the zero matrix, as products of random matrices mod 2^32 do.
            // Upper and lower alternate (and r is odd), so neighbours never commute.
            const auto r = static_cast<std::uint32_t>(rng()) | 1u;
            d.mats[i] = i % 2 == 0 ? mat2{1, r, 0, 1} : mat2{1, 0, r, 1};
            d.words[i] = static_cast<std::uint32_t>(rng());
            d.small[i] = static_cast<float>(static_cast<int>(rng() % 17) - 8);  // exact sums in float up to 2^21 elements
            d.weights[i] = static_cast<double>(static_cast<int>(rng() % 9) - 4);
            d.big[i] = rng();
            d.ints[i] = static_cast<std::int32_t>(rng());
        }
        return d;
    }();
    return in;
}

inline const std::vector<preduce::options> option_sets = {{}, {.threads = 1}, {.threads = 3}};

// body(where, n, opts) for every residency, size and option set, with them as the context
// of any failed check.
template <class F>
void for_every_call(F&& body) {
    for (std::size_t where = 0; where < residencies().size(); ++where)
        for (std::size_t n : sizes)
            for (const auto& opts : option_sets) {
                INFO("n " << n << ", " << residencies()[where] << " memory, threads " << opts.threads << ", seed "
                          << seed() << " (PREDUCE_TEST_SEED repeats it)");
                body(where, n, opts);
            }
}

} // namespace custom_test

TEST_CASE("non-commutative user operations keep operand order", "[custom]") {
    using namespace custom_test;
    const inputs& d = data();
    for_every_call([&](std::size_t where, std::size_t n, const preduce::options& opts) {
        mat2 want_m = matmul::identity(), reversed = matmul::identity();
        hash_state want_h = sequence_hash::identity();
        for (std::size_t i = 0; i < n; ++i) {
            want_m = matmul::combine(want_m, d.mats[i]);
            reversed = matmul::combine(d.mats[i], reversed);
            want_h = {want_h.hash * sequence_hash::base + d.words[i] + 1, want_h.power * sequence_hash::base};
        }
        if (n >= 2) CHECK_FALSE(want_m == reversed);  // the op really is order-sensitive here
        CHECK(UNDER_TEST::reduce(on(d.mats, 0, where), n, matmul{}, opts) == want_m);
        CHECK(UNDER_TEST::reduce(on(d.words, 0, where), n, sequence_hash{}, opts) == want_h);
    });
}

TEST_CASE("commutative user operations and transforms of one and two inputs", "[custom]") {
    using namespace custom_test;
    const inputs& d = data();
    for_every_call([&](std::size_t where, std::size_t n, const preduce::options& opts) {
        const bool small_sums_exact = n <= (std::size_t{1} << 21);
        sum_maxabs want_s{-0.0f, 0.0f};
        std::uint64_t want_lo = 0, want_hi = 0;  // a 128-bit sum, carried by hand
        std::uint64_t want_c = 0, want_x = 0;
        for (std::size_t i = 0; i < n; ++i) {
            want_s = {want_s.sum + d.small[i], std::fmax(want_s.maxabs, std::fabs(d.small[i]))};
            want_lo += d.big[i];
            want_hi += want_lo < d.big[i] ? 1u : 0u;
            want_c += d.ints[i] > 12345;
            want_x ^= d.big[i];
        }
        if (small_sums_exact) CHECK(UNDER_TEST::reduce(on(d.small, 0, where), n, sum_and_maxabs{}, opts) == want_s);
        const u128 got_w = UNDER_TEST::reduce(on(d.big, 0, where), n, wide_add{}, opts);
        CHECK(got_w.lo == want_lo);
        CHECK(got_w.hi == want_hi);
        CHECK(UNDER_TEST::reduce(on(d.ints, 0, where), n, count_above{12345}, opts) == static_cast<double>(want_c));
        CHECK(UNDER_TEST::reduce(on(d.big, 0, where), n, bit_xor{}, opts) == want_x);

        // Transforms: x^2 in int64 (wrapping), and x * w over two inputs read side by side.
        std::uint64_t want_sq = 0;
        double want_wsum = 0;
        std::uint32_t want_dot = 0;
        for (std::size_t i = 0; i < n; ++i) {
            want_sq += static_cast<std::uint64_t>(square{}(d.ints[i]));
            want_wsum += static_cast<double>(d.small[i]) * d.weights[i];
            want_dot += static_cast<std::uint32_t>(d.ints[i]) * d.words[i];
        }
        CHECK(UNDER_TEST::reduce(on(d.ints, 0, where), n, preduce::transform(square{}, preduce::sum), opts) ==
              static_cast<std::int64_t>(want_sq));
        CHECK(UNDER_TEST::reduce(on(d.small, 0, where), on(d.weights, 1, where), n,
                                 preduce::transform(weighted{}, preduce::sum), opts) == want_wsum);
        // dot over int32 x uint32 is not a built-in (one element type); the same through a
        // user transform of the pair:
        const auto mixed = preduce::transform(mixed_product{}, preduce::sum);
        CHECK(UNDER_TEST::reduce(on(d.ints, 0, where), on(d.words, 1, where), n, mixed, opts) == want_dot);
    });
}

TEST_CASE("built-ins and fused tuples through the backend's header-only template", "[custom]") {
    using namespace custom_test;
    const inputs& d = data();
    for_every_call([&](std::size_t where, std::size_t n, const preduce::options& opts) {
        // dot, minmax, moments.
        std::uint32_t want_self_dot = 0;
        std::uint32_t lo = UINT32_MAX, hi = 0;
        for (std::size_t i = 0; i < n; ++i) {
            want_self_dot += d.words[i] * d.words[i];
            lo = d.words[i] < lo ? d.words[i] : lo;
            hi = d.words[i] > hi ? d.words[i] : hi;
        }
        CHECK(UNDER_TEST::reduce(on(d.words, 0, where), on(d.words, 1, where), n, preduce::dot, opts) == want_self_dot);
        const auto mm = UNDER_TEST::reduce(on(d.words, 0, where), n, preduce::minmax, opts);
        CHECK(mm.min == lo);
        CHECK(mm.max == hi);
        if (n <= (std::size_t{1} << 21)) {  // sums of the small integers are exact in double
            double s = 0;
            for (std::size_t i = 0; i < n; ++i) s += d.small[i];
            const auto mo = UNDER_TEST::reduce(on(d.small, 0, where), n, preduce::moments, opts);
            CHECK(mo.count == n);
            CHECK((n == 0 ? std::isnan(mo.mean) : std::fabs(mo.mean - s / static_cast<double>(n)) <= 1e-12));
        }

        // Fused tuples: commutative parts (one SIMD pass), and with a non-commutative part
        // (then the whole tuple keeps operand order).
        std::uint32_t want_sum = 0, want_max = 0;
        std::uint64_t want_pos = 0;
        hash_state want_h = sequence_hash::identity();
        for (std::size_t i = 0; i < n; ++i) {
            want_sum += d.words[i];
            want_max = d.words[i] > want_max ? d.words[i] : want_max;
            want_pos += d.words[i] > 0x80000000u;
            want_h = {want_h.hash * sequence_hash::base + d.words[i] + 1, want_h.power * sequence_hash::base};
        }
        const auto [f_sum, f_max, f_pos] = UNDER_TEST::reduce(
            on(d.words, 0, where), n,
            preduce::fused(preduce::sum, preduce::max, preduce::count_if(preduce::greater(0x80000000u))), opts);
        CHECK(f_sum == want_sum);
        CHECK(f_max == want_max);
        CHECK(f_pos == want_pos);
        const auto [o_hash, o_sum, o_max] =
            UNDER_TEST::reduce(on(d.words, 0, where), n, preduce::fused(sequence_hash{}, preduce::sum, preduce::max), opts);
        CHECK(o_hash == want_h);
        CHECK(o_sum == want_sum);
        CHECK(o_max == want_max);
    });
}

TEST_CASE("narrow element types through the backend's header-only template", "[custom][narrow]") {
    for (std::size_t where = 0; where < custom_test::residencies().size(); ++where) {
        INFO(custom_test::residencies()[where] << " memory");
        custom_test::run_narrow(where, custom_test::option_sets);
    }
}

// Many results per call with non-commutative operations: each segment's product and hash in
// order, segments of every size at the boundaries above, empty ones included.
TEST_CASE("segments and batches of non-commutative operations, in order", "[custom][segments]") {
    using namespace custom_test;
    const inputs& d = data();
    std::vector<std::uint64_t> offsets{0};
    for (std::size_t k : sizes)
        if (k <= 70000) {
            offsets.push_back(offsets.back() + k);
            offsets.push_back(offsets.back());  // an empty segment after each
        }
    const std::size_t m = offsets.size() - 1, total = offsets.back();
    for (std::size_t where = 0; where < residencies().size(); ++where)
        for (const auto& opts : option_sets) {
            INFO(residencies()[where] << " memory, threads " << opts.threads << ", seed " << seed());
            std::vector<mat2> got_m(m);
            std::vector<hash_state> got_h(m);
            UNDER_TEST::reduce_segments(on(d.mats, 0, where), total, offsets.data(), m, matmul{}, got_m.data(), opts);
            UNDER_TEST::reduce_segments(on(d.words, 0, where), total, offsets.data(), m, sequence_hash{}, got_h.data(),
                                        opts);
            for (std::size_t s = 0; s < m; ++s) {
                mat2 want_m = matmul::identity();
                hash_state want_h = sequence_hash::identity();
                for (std::size_t i = offsets[s]; i < offsets[s + 1]; ++i) {
                    want_m = matmul::combine(want_m, d.mats[i]);
                    want_h = {want_h.hash * sequence_hash::base + d.words[i] + 1, want_h.power * sequence_hash::base};
                }
                INFO("segment " << s << " of " << m);
                CHECK(got_m[s] == want_m);
                CHECK(got_h[s] == want_h);
            }
            // Fixed-size batches of 1000: the hash of every batch, in order.
            const std::size_t k = 1000, batches = 70;
            std::vector<hash_state> got_b(batches);
            UNDER_TEST::reduce_batches(on(d.words, 0, where), k * batches, k, sequence_hash{}, got_b.data(), opts);
            for (std::size_t b = 0; b < batches; ++b) {
                hash_state want = sequence_hash::identity();
                for (std::size_t i = b * k; i < (b + 1) * k; ++i)
                    want = {want.hash * sequence_hash::base + d.words[i] + 1, want.power * sequence_hash::base};
                INFO("batch " << b);
                CHECK(got_b[b] == want);
            }
        }
}
