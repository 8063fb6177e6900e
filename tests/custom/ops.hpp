#pragma once
// User operations as a user would write them (custom.hpp's conventions), callable on host
// and device. Two are associative but NOT commutative, so any backend that reorders
// operands gives a different answer: a 2x2 matrix product and the polynomial hash of the
// sequence (the hash of a concatenation from the hashes of its parts).
#include <cstddef>
#include <cstdint>

#include "preduce/detail/core/hd.hpp"
#include "preduce/source.hpp"

namespace custom_test {

struct mat2 {
    std::uint32_t a, b, c, d;
    friend constexpr bool operator==(const mat2&, const mat2&) = default;
};

// Products of unsigned 32-bit matrices (arithmetic mod 2^32): exact, so results are
// compared bit for bit. Not commutative.
struct matmul {
    using value_type = mat2;
    PREDUCE_HD static constexpr mat2 identity() { return {1, 0, 0, 1}; }
    PREDUCE_HD static constexpr mat2 combine(const mat2& x, const mat2& y) {
        return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
    }
};

struct hash_state {
    std::uint64_t hash;  // sum of (x_i + 1) * B^(n-1-i), mod 2^64
    std::uint64_t power; // B^n
    friend constexpr bool operator==(const hash_state&, const hash_state&) = default;
};

// Hash of a uint32 sequence: any reordering or lost element changes it. Not commutative.
struct sequence_hash {
    using value_type = std::uint32_t;
    using accumulator_type = hash_state;
    static constexpr std::uint64_t base = 0x100000001B3ull;
    PREDUCE_HD static constexpr hash_state identity() { return {0, 1}; }
    PREDUCE_HD static constexpr hash_state combine(const hash_state& x, const hash_state& y) {
        return {x.hash * y.power + y.hash, x.power * y.power};
    }
    PREDUCE_HD constexpr hash_state lift(std::uint32_t x) const { return {std::uint64_t{x} + 1, base}; }
};

// A struct of two floats: sum and largest magnitude. Commutative; the data are small
// integers so every order of the sum is exact.
struct sum_maxabs {
    float sum;
    float maxabs;
    friend constexpr bool operator==(const sum_maxabs&, const sum_maxabs&) = default;
};
struct sum_and_maxabs {
    using value_type = float;
    using accumulator_type = sum_maxabs;
    static constexpr bool commutative = true;
    PREDUCE_HD static constexpr sum_maxabs identity() { return {-0.0f, 0.0f}; }
    PREDUCE_HD static constexpr sum_maxabs combine(const sum_maxabs& x, const sum_maxabs& y) {
        return {x.sum + y.sum, x.maxabs < y.maxabs ? y.maxabs : x.maxabs};
    }
    PREDUCE_HD constexpr sum_maxabs lift(float x, std::size_t) const { return {x, x < 0 ? -x : x}; }
};

// A 128-bit integer as a pair of 64-bit words: exact sum of uint64 values. Commutative;
// combine is a member of a default-constructed op (not static).
struct u128 {
    std::uint64_t lo, hi;
    friend constexpr bool operator==(const u128&, const u128&) = default;
};
struct wide_add {
    using value_type = std::uint64_t;
    using accumulator_type = u128;
    static constexpr bool commutative = true;
    PREDUCE_HD constexpr u128 identity() const { return {0, 0}; }
    PREDUCE_HD constexpr u128 combine(const u128& x, const u128& y) const {
        const std::uint64_t lo = x.lo + y.lo;
        return {lo, x.hi + y.hi + (lo < x.lo ? 1u : 0u)};
    }
    PREDUCE_HD constexpr u128 lift(std::uint64_t x) const { return {x, 0}; }
};

// A parameter carried by the op object (lift is a member): elements above a threshold.
struct count_above {
    using value_type = std::int32_t;
    using accumulator_type = std::uint64_t;
    static constexpr bool commutative = true;
    std::int32_t threshold;
    PREDUCE_HD static constexpr std::uint64_t identity() { return 0; }
    PREDUCE_HD static constexpr std::uint64_t combine(std::uint64_t x, std::uint64_t y) { return x + y; }
    PREDUCE_HD constexpr std::uint64_t lift(std::int32_t x) const { return x > threshold ? 1u : 0u; }
    PREDUCE_HD constexpr double finish(std::uint64_t c) const { return static_cast<double>(c); }  // a different result type
};

// Nothing but identity and combine: lift and finish take their defaults.
struct bit_xor {
    using value_type = std::uint64_t;
    static constexpr bool commutative = true;
    PREDUCE_HD static constexpr std::uint64_t identity() { return 0; }
    PREDUCE_HD static constexpr std::uint64_t combine(std::uint64_t x, std::uint64_t y) { return x ^ y; }
};

// Transforms for preduce::transform.
struct square {
    PREDUCE_HD constexpr std::int64_t operator()(std::int32_t x) const { return std::int64_t{x} * x; }
};
struct weighted {
    PREDUCE_HD constexpr double operator()(const preduce::zip_value<float, double>& v) const {
        return static_cast<double>(v.first) * v.second;
    }
};

struct mixed_product {
    PREDUCE_HD constexpr std::uint32_t operator()(const preduce::zip_value<std::int32_t, std::uint32_t>& v) const {
        return static_cast<std::uint32_t>(v.first) * v.second;
    }
};

// A non-commutative operation that checks the order itself: it records the index range it
// has seen and whether every combine joined adjacent ranges, left before right. Any
// reordering or regrouping that breaks the left fold shows as state 2 (broken).
struct in_order {
    using value_type = float;
    struct seen {
        std::uint64_t first, last;
        int state;  // 0 empty, 1 in order so far, 2 broken
    };
    using accumulator_type = seen;
    PREDUCE_HD static seen identity() { return {0, 0, 0}; }
    PREDUCE_HD static seen combine(const seen& a, const seen& b) {
        if (a.state == 0) return b;
        if (b.state == 0) return a;
        const bool ok = a.state == 1 && b.state == 1 && a.last + 1 == b.first;
        return {a.first, b.last, ok ? 1 : 2};
    }
    PREDUCE_HD seen lift(float, std::size_t i) const { return {i, i, 1}; }
};

} // namespace custom_test
