// Pinned golden bits of precision::deterministic and compensated: fixed inputs
// (support/golden_inputs.hpp) and the results' bits, written down once. Every other
// fixed-order test compares backends with each other or with the reference in
// fixed_order/order.hpp, which all change together if the order itself changes; these
// constants do not. Part of the shared body: every backend, residency and rank count.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "support/golden_inputs.hpp"
#include "support/under_test.hpp"

using namespace preduce;

namespace {

// Result bits of sum, sumsq, asum, wide_sum (double for both types) and dot (x with a
// second stream y) over the first n golden values.
struct golden {
    std::size_t n;
    precision p;
    std::uint64_t sum, sumsq, asum, wide_sum, dot;
};

template <class T>
const std::vector<golden>& expected();

template <>
const std::vector<golden>& expected<float>() {
    static const std::vector<golden> rows = {
        {1, precision::deterministic, 0xc90c3b10, 0x5299a14e, 0x490c3b10, 0xc121876200000000, 0x5384d12b},
        {1, precision::compensated, 0xc90c3b10, 0x5299a14e, 0x490c3b10, 0xc121876200000000, 0x5384d12b},
        {4097, precision::deterministic, 0xcba6956f, 0x593686ed, 0x4e419994, 0xc174d2ade63faefe, 0x5564cdf6},
        {4097, precision::compensated, 0xcba6956f, 0x593686ed, 0x4e419995, 0xc174d2ade63faefc, 0x5564cdf1},
        {100003, precision::deterministic, 0xcc321a8c, 0x5b7f8550, 0x50904009, 0xc186434fdedd55b8, 0xd691f4c8},
        {100003, precision::compensated, 0xcc321a7f, 0x5b7f8551, 0x50904009, 0xc186434fdedd55b8, 0xd691f4c6},
        {1048579, precision::deterministic, 0xce52d1aa, 0x5d2b959a, 0x5240d352, 0xc1ca5a35d25a4e82, 0x583199d2},
        {1048579, precision::compensated, 0xce52d1af, 0x5d2b959a, 0x5240d353, 0xc1ca5a35d25a4e78, 0x583199d3},
    };
    return rows;
}

template <>
const std::vector<golden>& expected<double>() {
    static const std::vector<golden> rows = {
        {1, precision::deterministic, 0xc2f18761955e46a0, 0x45f33428de741585, 0x42f18761955e46a0, 0xc2f18761955e46a0, 0x46109a24f539517c},
        {1, precision::compensated, 0xc2f18761955e46a0, 0x45f33428de741585, 0x42f18761955e46a0, 0xc2f18761955e46a0, 0x46109a24f539517c},
        {4097, precision::deterministic, 0xc344d2a85349bd47, 0x46c6d0dda379fdc1, 0x4398333297f36278, 0xc344d2a85349bd47, 0x464c99be36471639},
        {4097, precision::compensated, 0xc344d2a85349bd43, 0x46c6d0dda379fdc1, 0x4398333297f36278, 0xc344d2a85349bd43, 0x464c99be3647163f},
        {100003, precision::deterministic, 0xc35643076dfb9dac, 0x470ff0aa2b3797ec, 0x43e2080128dd0d78, 0xc35643076dfb9dac, 0xc6723e987681b39e},
        {100003, precision::compensated, 0xc35643076dfb9db9, 0x470ff0aa2b3797ed, 0x43e2080128dd0d78, 0xc35643076dfb9db9, 0xc6723e987681b3a4},
        {1048579, precision::deterministic, 0xc39a5a058d0c2f00, 0x474572b346f893f6, 0x44181a6a6e76a3cb, 0xc39a5a058d0c2f00, 0x46a6333a6f8044a8},
        {1048579, precision::compensated, 0xc39a5a058d0c2f02, 0x474572b346f893f7, 0x44181a6a6e76a3cb, 0xc39a5a058d0c2f02, 0x46a6333a6f8044a5},
    };
    return rows;
}

template <class V>
std::uint64_t bits(V v) {
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof v);
    return b;
}

} // namespace

TEMPLATE_TEST_CASE("fixed-order sums give the pinned golden bits", "[precision][golden]", float, double) {
    using T = TestType;
    const auto x = test::golden_values<T>(1048579, 1);
    const auto y = test::golden_values<T>(1048579, 2);
    for (const golden& g : expected<T>()) {
        const std::span<const T> xs(x.data(), g.n), ys(y.data(), g.n);
        const options o{.precision = g.p};
        INFO("n " << g.n << ", " << name(g.p));
        CHECK(bits(test::run(xs, sum, o)) == g.sum);
        CHECK(bits(test::run(xs, sumsq, o)) == g.sumsq);
        CHECK(bits(test::run(xs, asum, o)) == g.asum);
        CHECK(bits(test::run(xs, wide_sum, o)) == g.wide_sum);
        CHECK(bits(test::run2(xs, ys, dot, o)) == g.dot);
    }
}
