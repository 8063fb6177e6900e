// What only preduce::mpi has: deterministic sums with the bits of one process for any
// rank count and split, global argmin/argmax positions, results on root only, the same
// bits on every rank, and a failure on one rank thrown on all. Every rank holds the whole
// sequence (the same seed everywhere) and passes its part; the reference is the seq
// backend on the whole sequence in this process.
#include <catch2/catch.hpp>
#include <mpi.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "preduce/mpi.hpp"
#include "support/data.hpp"
#include "support/mpi_part.hpp"
#include "support/under_test.hpp"

using namespace preduce;
using preduce::test::part;

namespace {

int rank_() {
    int r = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    return r;
}
int ranks_() {
    int p = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    return p;
}

template <class T>
auto bits(T x) {
    if constexpr (sizeof(T) == 4) return std::bit_cast<std::uint32_t>(x);
    else return std::bit_cast<std::uint64_t>(x);
}

// Whether every rank holds the same bytes in x.
template <class T>
bool same_on_every_rank(const T& x) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<unsigned char> all(sizeof(T) * static_cast<std::size_t>(ranks_()));
    MPI_Allgather(&x, sizeof(T), MPI_BYTE, all.data(), sizeof(T), MPI_BYTE, MPI_COMM_WORLD);
    for (int r = 1; r < ranks_(); ++r)
        if (std::memcmp(all.data(), all.data() + sizeof(T) * static_cast<std::size_t>(r), sizeof(T)) != 0) return false;
    return true;
}

constexpr std::size_t det_sizes[] = {0, 1, 31, 4095, 4096, 4097, 3 * 4096 + 17, 16 * 4096, 100003, (1u << 20) + 3};

template <class T, class Op>
void check_fixed_order_bits(const Op& op, const char* what) {
    for (std::size_t n : det_sizes) {
        const auto x = test::random_values<T>(n, 11 + n);
        const auto y = test::random_values<T>(n, 12 + n);
        const options det{.precision = precision::deterministic};
        T want{};
        if constexpr (std::is_same_v<Op, dot_op>) want = reduce(backend::seq, x, y, op, det);
        else want = reduce(backend::seq, x, op, det);
        for (unsigned pattern = 0; pattern < 12; ++pattern) {
            const part p = test::split(n, rank_(), ranks_(), pattern);
            T got{};
            if constexpr (std::is_same_v<Op, dot_op>)
                got = mpi::allreduce(MPI_COMM_WORLD, test::under_test(), x.data() + p.first, y.data() + p.first, p.count,
                                     op, det);
            else got = mpi::allreduce(MPI_COMM_WORLD, test::under_test(), x.data() + p.first, p.count, op, det);
            INFO(what << ", n = " << n << ", split pattern " << pattern << ", rank " << rank_() << " has ["
                      << p.first << ", " << p.first + p.count << ")");
            CHECK(bits(got) == bits(want));
        }
    }
}

} // namespace

TEMPLATE_TEST_CASE("deterministic sums have the single-process bits for every rank count and split", "[mpi][precision]",
                   float, double) {
    using T = TestType;
    check_fixed_order_bits<T>(sum, "sum");
    check_fixed_order_bits<T>(sumsq, "sumsq");
    check_fixed_order_bits<T>(asum, "asum");
    check_fixed_order_bits<T>(dot, "dot");
    // wide_sum of floats accumulates in double: the fixed order in double.
    const auto x = test::random_values<T>(70001, 3);
    const auto want = reduce(backend::seq, x, wide_sum, {.precision = precision::deterministic});
    for (unsigned pattern = 0; pattern < 6; ++pattern) {
        const part p = test::split(x.size(), rank_(), ranks_(), pattern);
        const auto got = mpi::allreduce(MPI_COMM_WORLD, test::under_test(), x.data() + p.first, p.count, wide_sum,
                                        {.precision = precision::deterministic});
        CHECK(bits(got) == bits(want));
    }
}

TEST_CASE("deterministic sums keep NaN, infinities and the sign of zero", "[mpi][precision]") {
    const options det{.precision = precision::deterministic};
    std::vector<float> zeros(9000, -0.0f);
    std::vector<float> inf(9000, 1.0f);
    inf[8999] = std::numeric_limits<float>::infinity();
    std::vector<float> nan(9000, 1.0f);
    nan[4100] = std::numeric_limits<float>::quiet_NaN();
    for (unsigned pattern = 0; pattern < 6; ++pattern) {
        const part p = test::split(9000, rank_(), ranks_(), pattern);
        const float z = mpi::allreduce(MPI_COMM_WORLD, test::under_test(), zeros.data() + p.first, p.count, sum, det);
        CHECK(bits(z) == bits(-0.0f));
        CHECK(mpi::allreduce(MPI_COMM_WORLD, test::under_test(), inf.data() + p.first, p.count, sum, det) ==
              std::numeric_limits<float>::infinity());
        CHECK(std::isnan(mpi::allreduce(MPI_COMM_WORLD, test::under_test(), nan.data() + p.first, p.count, sum, det)));
    }
    // An empty sequence on every rank: the identity, as one process gives.
    const float e = mpi::allreduce(MPI_COMM_WORLD, test::under_test(), static_cast<const float*>(nullptr), 0, sum, det);
    CHECK(bits(e) == bits(reduce(backend::seq, static_cast<const float*>(nullptr), 0, sum, det)));
}

TEMPLATE_TEST_CASE("argmin and argmax report global positions, the lowest on ties", "[mpi][ties]", std::int32_t,
                   std::uint64_t, float, double) {
    using T = TestType;
    const int p = ranks_();
    // Every rank holds 1000 values; the extremes appear on the last two ranks (or the only one).
    std::vector<T> all(1000 * static_cast<std::size_t>(p), T(5));
    const std::size_t lo_at = 1000 * static_cast<std::size_t>(p > 1 ? p - 2 : 0) + 777;
    all[lo_at] = T(1);
    all[all.size() - 3] = T(1);  // a tie further on: lo_at wins
    all[all.size() - 1] = T(9);
    const std::span<const T> mine(all.data() + 1000 * static_cast<std::size_t>(rank_()), 1000);
    const auto lo = mpi::allreduce(MPI_COMM_WORLD, test::under_test(), mine, argmin);
    const auto hi = mpi::allreduce(MPI_COMM_WORLD, test::under_test(), mine, argmax);
    CHECK(lo.index == lo_at);
    CHECK(lo.value == T(1));
    CHECK(hi.index == all.size() - 1);
    CHECK(hi == reduce(backend::seq, all, argmax));
    if constexpr (std::is_floating_point_v<T>) {
        // A NaN on any rank wins, at its global position; the first of two NaNs.
        all[all.size() - 2] = std::numeric_limits<T>::quiet_NaN();
        all[1000 * static_cast<std::size_t>(p - 1) + 10] = std::numeric_limits<T>::quiet_NaN();
        const auto n = mpi::allreduce(MPI_COMM_WORLD, test::under_test(), mine, argmin);
        CHECK(std::isnan(n.value));
        CHECK(n.index == 1000 * static_cast<std::size_t>(p - 1) + 10);
        CHECK(std::isnan(mpi::allreduce(MPI_COMM_WORLD, test::under_test(), mine, preduce::max)));
        CHECK(std::isnan(mpi::allreduce(MPI_COMM_WORLD, test::under_test(), mine, preduce::min)));
        CHECK(std::isnan(mpi::allreduce(MPI_COMM_WORLD, test::under_test(), mine, sum)));
    }
    // Empty everywhere: the identity and no_index.
    const auto none = mpi::allreduce(MPI_COMM_WORLD, test::under_test(), static_cast<const T*>(nullptr), 0, argmin);
    CHECK(none.index == no_index);
}

TEMPLATE_TEST_CASE("reduce gives the allreduce result on root only", "[mpi]", std::int64_t, float) {
    using T = TestType;
    const auto x = test::random_values<T>(50021, 21);
    for (int root = 0; root < ranks_(); ++root) {
        const part p = test::split(x.size(), rank_(), ranks_(), static_cast<unsigned>(root) + 1);
        const T* mine = x.data() + p.first;
        const auto all = mpi::allreduce(MPI_COMM_WORLD, test::under_test(), mine, p.count, sum);
        const auto one = mpi::reduce(MPI_COMM_WORLD, test::under_test(), mine, p.count, sum, root);
        const auto m = mpi::reduce(MPI_COMM_WORLD, test::under_test(), mine, p.count, preduce::moments, root);
        const auto am = mpi::reduce(MPI_COMM_WORLD, test::under_test(), mine, p.count, argmax, root);
        const auto det = mpi::reduce(MPI_COMM_WORLD, test::under_test(), mine, p.count, sum, root,
                                     {.precision = std::is_floating_point_v<T> ? precision::deterministic : precision::fast});
        if (rank_() == root) {
            REQUIRE(one.has_value());
            if constexpr (std::is_floating_point_v<T>) {
                // Fast float sums: MPI_Reduce and MPI_Allreduce may add the ranks' partials in
                // different trees, so the two may differ within the rounding bound.
                const double scale = reduce(backend::seq, x, asum, {.precision = precision::deterministic});
                CHECK(std::fabs(double(*one) - double(all)) <=
                      2.0 * ranks_() * std::numeric_limits<T>::epsilon() * scale);
            } else {
                CHECK(*one == all);
            }
            REQUIRE(m.has_value());
            CHECK(m->count == x.size());
            REQUIRE(am.has_value());
            CHECK(*am == reduce(backend::seq, x, argmax));
            REQUIRE(det.has_value());
            if constexpr (std::is_floating_point_v<T>)
                CHECK(bits(*det) == bits(reduce(backend::seq, x, sum, {.precision = precision::deterministic})));
        } else {
            CHECK_FALSE(one.has_value());
            CHECK_FALSE(m.has_value());
            CHECK_FALSE(am.has_value());
            CHECK_FALSE(det.has_value());
        }
    }
}

TEST_CASE("every rank gets the same bits, also for combines that are not bitwise commutative", "[mpi]") {
    const auto x = test::random_values<double>(123457, 31);
    for (unsigned pattern = 0; pattern < 6; ++pattern) {
        const part p = test::split(x.size(), rank_(), ranks_(), pattern);
        const double* mine = x.data() + p.first;
        CHECK(same_on_every_rank(mpi::allreduce(MPI_COMM_WORLD, test::under_test(), mine, p.count, sum)));
        CHECK(same_on_every_rank(mpi::allreduce(MPI_COMM_WORLD, test::under_test(), mine, p.count, preduce::moments)));
        CHECK(same_on_every_rank(mpi::allreduce(MPI_COMM_WORLD, test::under_test(), mine, p.count, preduce::variance)));
    }
}

TEST_CASE("a failure on one rank is the same exception on every rank, and the next call works", "[mpi][errors]") {
    std::vector<float> v(1000, 1.0f);
    const int bad = ranks_() - 1;
    const float* mine = rank_() == bad ? nullptr : v.data();
    try {
        (void)mpi::allreduce(MPI_COMM_WORLD, test::under_test(), mine, v.size(), sum);
        FAIL("no exception");
    } catch (const preduce::invalid_argument& e) {
        INFO(e.what());
        CHECK(std::string(e.what()).find("rank " + std::to_string(bad)) != std::string::npos);
        CHECK(std::string(e.what()).find("null") != std::string::npos);
    }
    // The same in the fixed order, which exchanges counts before reducing.
    CHECK_THROWS_AS(mpi::allreduce(MPI_COMM_WORLD, test::under_test(), mine, v.size(), sum,
                                   {.precision = precision::deterministic}),
                    preduce::invalid_argument);
    CHECK_THROWS_AS(mpi::reduce(MPI_COMM_WORLD, test::under_test(), mine, v.size(), argmin, 0), preduce::invalid_argument);
    // Refused everywhere: compensated across ranks, precision on an op it does not cover,
    // a root outside the communicator, a null communicator.
    CHECK_THROWS_AS(mpi::allreduce(MPI_COMM_WORLD, test::under_test(), v, sum, {.precision = precision::compensated}),
                    preduce::invalid_argument);
    CHECK_THROWS_AS(mpi::allreduce(MPI_COMM_WORLD, test::under_test(), v, preduce::moments,
                                   {.precision = precision::deterministic}),
                    preduce::invalid_argument);
    CHECK_THROWS_AS(mpi::reduce(MPI_COMM_WORLD, test::under_test(), v, sum, ranks_()), preduce::invalid_argument);
    CHECK_THROWS_AS(mpi::reduce(MPI_COMM_WORLD, test::under_test(), v, sum, -1), preduce::invalid_argument);
    CHECK_THROWS_AS(mpi::allreduce(MPI_COMM_NULL, test::under_test(), v, sum), preduce::invalid_argument);
    // A backend this build lacks or this machine cannot run.
    for (backend b : all_backends)
        if (!is_usable(b)) CHECK_THROWS_AS(mpi::allreduce(MPI_COMM_WORLD, b, v, sum), preduce::error);
    // And the next call works.
    CHECK(mpi::allreduce(MPI_COMM_WORLD, test::under_test(), v, sum) == 1000.0f * static_cast<float>(ranks_()));
}
