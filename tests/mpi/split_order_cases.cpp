// The split order on its own, in one process: a sequence cut into parts at arbitrary
// positions, each part's state built with a backend's deterministic sums of its aligned
// block runs, the states merged in any grouping (left fold, right fold, random trees, as
// an MPI reduction may) must give exactly the bits of one fixed-order sum of the whole.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "preduce/mpi/split_order.hpp"
#include "preduce/preduce.hpp"
#include "support/data.hpp"

using namespace preduce;
namespace split = preduce::mpi::detail;

namespace {

template <class T>
using state_ptr = std::unique_ptr<split::split_state<T>>;

template <class T>
state_ptr<T> state_of(const std::vector<T>& x, std::uint64_t first, std::uint64_t n, backend b) {
    return split::local_state<T>(
        x.size(), first, n,
        [&](std::uint64_t pos, std::uint64_t count, T* out) { std::copy_n(x.data() + pos, count, out); },
        [&](std::uint64_t pos, std::uint64_t count) {
            return reduce(b, x.data() + pos, count, sum, {.precision = precision::deterministic});
        });
}

// Merges states[lo, hi) with a random bracketing.
template <class T>
state_ptr<T> merge_tree(std::vector<state_ptr<T>>& states, std::size_t lo, std::size_t hi, std::mt19937_64& rng) {
    if (hi - lo == 1) return std::make_unique<split::split_state<T>>(*states[lo]);
    const std::size_t mid = lo + 1 + rng() % (hi - lo - 1);
    auto left = merge_tree(states, lo, mid, rng);
    auto right = merge_tree(states, mid, hi, rng);
    return split::merge(*left, *right);
}

template <class T>
void check_splits(std::size_t n, int parts, std::mt19937_64& rng, backend b) {
    const auto x = test::random_values<T>(n, n);
    const T want = reduce(backend::seq, x, sum, {.precision = precision::deterministic});
    std::vector<std::uint64_t> cut(static_cast<std::size_t>(parts) + 1, 0);
    cut.back() = n;
    for (int k = 1; k < parts; ++k) {
        const auto r = rng() % 4;
        // Random positions, block boundaries and their neighbours, and empty parts.
        std::uint64_t c = n == 0 ? 0 : rng() % (n + 1);
        if (r == 1) c = (c / 4096) * 4096;
        if (r == 2) c = std::min<std::uint64_t>(n, (c / 4096) * 4096 + 1);
        cut[static_cast<std::size_t>(k)] = c;
    }
    std::sort(cut.begin(), cut.end());
    std::vector<state_ptr<T>> states;
    for (int k = 0; k < parts; ++k)
        states.push_back(state_of(x, cut[static_cast<std::size_t>(k)], cut[static_cast<std::size_t>(k) + 1] - cut[static_cast<std::size_t>(k)], b));
    for (int grouping = 0; grouping < 3; ++grouping) {
        state_ptr<T> all;
        if (grouping == 0) {  // left fold
            all = std::make_unique<split::split_state<T>>(*states[0]);
            for (std::size_t k = 1; k < states.size(); ++k) all = split::merge(*all, *states[k]);
        } else if (grouping == 1) {  // right fold
            all = std::make_unique<split::split_state<T>>(*states.back());
            for (std::size_t k = states.size() - 1; k-- > 0;) all = split::merge(*states[k], *all);
        } else {
            all = merge_tree(states, 0, states.size(), rng);
        }
        T got{};
        INFO("n = " << n << ", " << parts << " parts, grouping " << grouping << ", backend " << name(b));
        REQUIRE(split::root_value(*all, got));
        CHECK(std::bit_cast<std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>(got) ==
              std::bit_cast<std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>(want));
    }
}

} // namespace

TEMPLATE_TEST_CASE("any split, merged in any grouping, gives the bits of one fixed-order sum", "[split]", float, double) {
    std::mt19937_64 rng(test::seed());
    for (backend b : available_backends()) {
        if (b == backend::cuda) continue;  // the host data here; the cuda backend is covered under mpirun
        for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{4095}, std::size_t{4096}, std::size_t{4097},
                              std::size_t{5 * 4096}, std::size_t{5 * 4096 + 1}, std::size_t{37 * 4096 + 999},
                              std::size_t{300001}})
            for (int parts : {1, 2, 3, 4, 7, 16})
                for (int trial = 0; trial < 4; ++trial) check_splits<TestType>(n, parts, rng, b);
    }
}

TEST_CASE("parts that do not meet are reported, not summed", "[split]") {
    const std::vector<float> x(10000, 1.0f);
    auto a = state_of(x, 0, 3000, backend::seq);
    auto c = state_of(x, 5000, 5000, backend::seq);
    auto ac = split::merge(*a, *c);  // a gap of 2000 elements
    float v = 0;
    CHECK(ac->failed);
    CHECK_FALSE(split::root_value(*ac, v));
    auto b = state_of(x, 3000, 2000, backend::seq);
    auto ab = split::merge(*a, *b);
    CHECK_FALSE(split::root_value(*ab, v));  // [0, 5000) of 10000: not the whole sequence
    auto abc = split::merge(*ab, *c);
    REQUIRE(split::root_value(*abc, v));
    CHECK(v == 10000.0f);
}
