// The narrow element types (int8, uint8, int16, uint16, float16, bfloat16) through the
// compiled front end, as part of the shared backend body: custom/narrow.hpp's cases, each
// call made by run() / run2() (support/under_test.hpp), so they meet every backend, every
// residency a test executable stages to, and, under mpirun, preduce::mpi.
#include <catch2/catch.hpp>

#include <cstddef>
#include <span>

#include "custom/host_residency.hpp"
#include "support/under_test.hpp"

namespace front_end_under_test {
template <class T, class Op>
auto reduce(const T* x, std::size_t n, const Op& op, const preduce::options& opts) {
    return preduce::test::run(std::span<const T>(x, n), op, opts);
}
template <class T, class Op>
auto reduce(const T* x, const T* y, std::size_t n, const Op& op, const preduce::options& opts) {
    return preduce::test::run2(std::span<const T>(x, n), std::span<const T>(y, n), op, opts);
}
} // namespace front_end_under_test

#define UNDER_TEST front_end_under_test
#define NARROW_COMPILED_OPS_ONLY
#if defined(PREDUCE_TEST_MPI)
#define NARROW_NO_COMPENSATED
#endif
#include "custom/narrow.hpp"

namespace {
const std::vector<preduce::options> option_sets = {{}, {.threads = 1}, {.threads = 3}};
} // namespace

TEMPLATE_TEST_CASE("narrow element types: every op against plain loops over the widened values", "[narrow]",
                   std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, preduce::float16, preduce::bfloat16) {
    std::mt19937_64 rng(custom_test::seed() ^ sizeof(TestType) ^ (preduce::detail::is_half_v<TestType> ? 0x10 : 0));
    custom_test::narrow_body<TestType>(rng, 0, option_sets);
}

TEMPLATE_TEST_CASE("narrow integers: sums of extremes never wrap", "[narrow]", std::int8_t, std::uint8_t, std::int16_t,
                   std::uint16_t) {
    custom_test::narrow_int_extremes<TestType>(0, option_sets);
}

TEMPLATE_TEST_CASE("16-bit floats: NaN, infinities, signed zeros, subnormals, the largest value", "[narrow][float]",
                   preduce::float16, preduce::bfloat16) {
    custom_test::narrow_specials<TestType>(0);
}
