// The fixed order assembled from parts (preduce/detail/algorithm/fixed_order/parts.hpp), in one
// process and without MPI or GPUs: a sequence cut into parts at arbitrary positions, each
// part's partial tree built from its own elements, the trees appended in any grouping (left
// fold, right fold, random trees, as an MPI reduction may) must give exactly the bits of one
// fixed-order sum of the whole, for deterministic and compensated sums alike. The node
// values come from a backend's deterministic sum of the run (as MPI ranks compute them) or
// from block_value + block_tree over the run (as the GPUs of one process do).
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "preduce/detail/algorithm/fixed_order/parts.hpp"
#include "preduce/preduce.hpp"
#include "support/data.hpp"

using namespace preduce;
namespace fixed_order = preduce::detail::fixed_order;

namespace {

template <precision P, class T>
using tree_ptr = std::unique_ptr<fixed_order::partial_tree<P, T>>;

// The node covering complete blocks [b0, b1) of x, computed on that run alone: with a
// backend (deterministic only: the compiled backends return rounded sums), or with the
// one-lane reference.
template <precision P, class T>
fixed_order::value_t<P, T> node_value(const std::vector<T>& x, std::uint64_t b0, std::uint64_t b1, const backend* b) {
    const std::size_t from = b0 * fixed_order::block;
    const std::size_t to = std::min<std::size_t>(b1 * fixed_order::block, x.size());
    if constexpr (P == precision::deterministic) {
        if (b != nullptr) return reduce(*b, x.data() + from, to - from, sum, {.precision = P});
    }
    const sum_reducer<T> r;
    std::vector<fixed_order::value_t<P, T>> v(fixed_order::block_count(to - from));
    for (std::size_t k = 0; k < v.size(); ++k) v[k] = fixed_order::block_value<P>(r, x.data() + from, to - from, k);
    return fixed_order::block_tree<P, T>(v.data(), v.size(), r.identity());
}

template <precision P, class T>
tree_ptr<P, T> tree_of(const std::vector<T>& x, std::uint64_t first, std::uint64_t n, const backend* b) {
    return fixed_order::tree_of_part<P, T>(
        x.size(), first, n, [&](std::uint64_t pos, std::uint64_t count, T* out) { std::copy_n(x.data() + pos, count, out); },
        [&](std::uint64_t b0, std::uint64_t b1) { return node_value<P>(x, b0, b1, b); });
}

template <precision P, class T>
tree_ptr<P, T> joined(const fixed_order::partial_tree<P, T>& left, const fixed_order::partial_tree<P, T>& right) {
    auto out = std::make_unique<fixed_order::partial_tree<P, T>>(left);
    fixed_order::append(*out, right);
    return out;
}

// Appends trees[lo, hi) with a random bracketing.
template <precision P, class T>
tree_ptr<P, T> join_randomly(std::vector<tree_ptr<P, T>>& trees, std::size_t lo, std::size_t hi, std::mt19937_64& rng) {
    if (hi - lo == 1) return std::make_unique<fixed_order::partial_tree<P, T>>(*trees[lo]);
    const std::size_t mid = lo + 1 + rng() % (hi - lo - 1);
    return joined(*join_randomly(trees, lo, mid, rng), *join_randomly(trees, mid, hi, rng));
}

template <class T>
auto bits(T v) {
    return std::bit_cast<std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>(v);
}

template <precision P, class T>
void check_splits(std::size_t n, int parts, std::mt19937_64& rng, const backend* b) {
    const auto x = test::random_values<T>(n, n);
    const T want = reduce(backend::seq, x, sum, {.precision = P});
    std::vector<std::uint64_t> cut(static_cast<std::size_t>(parts) + 1, 0);
    cut.back() = n;
    for (int k = 1; k < parts; ++k) {
        const auto r = rng() % 4;
        // Random positions, block boundaries and their neighbours, and empty parts.
        std::uint64_t c = n == 0 ? 0 : rng() % (n + 1);
        if (r == 1) c = (c / fixed_order::block) * fixed_order::block;
        if (r == 2) c = std::min<std::uint64_t>(n, (c / fixed_order::block) * fixed_order::block + 1);
        cut[static_cast<std::size_t>(k)] = c;
    }
    std::sort(cut.begin(), cut.end());
    std::vector<tree_ptr<P, T>> trees;
    for (std::size_t k = 0; k + 1 < cut.size(); ++k) trees.push_back(tree_of<P>(x, cut[k], cut[k + 1] - cut[k], b));
    for (int grouping = 0; grouping < 3; ++grouping) {
        tree_ptr<P, T> all;
        if (grouping == 0) {  // left fold
            all = std::make_unique<fixed_order::partial_tree<P, T>>(*trees[0]);
            for (std::size_t k = 1; k < trees.size(); ++k) fixed_order::append(*all, *trees[k]);
        } else if (grouping == 1) {  // right fold
            all = std::make_unique<fixed_order::partial_tree<P, T>>(*trees.back());
            for (std::size_t k = trees.size() - 1; k-- > 0;) all = joined(*trees[k], *all);
        } else {
            all = join_randomly(trees, 0, trees.size(), rng);
        }
        fixed_order::value_t<P, T> root{};
        INFO("n = " << n << ", " << parts << " parts, grouping " << grouping << ", "
                    << (b != nullptr ? std::string(name(*b)) : std::string("reference")) << " nodes, " << name(P));
        REQUIRE(fixed_order::root_value(*all, root));
        CHECK(bits(fixed_order::result<P, T>(root)) == bits(want));
    }
}

const std::vector<std::size_t> sizes = {0,        1,        4095,     4096,      4097,  5 * 4096,
                                        5 * 4096 + 1, 37 * 4096 + 999, 300001};

} // namespace

TEMPLATE_TEST_CASE("any split, appended in any grouping, gives the bits of one fixed-order sum", "[parts]", float,
                   double) {
    std::mt19937_64 rng(test::seed());
    for (backend b : available_backends()) {
        if (b == backend::cuda) continue;  // host data here; the GPUs' own nodes are tested by test_multigpu
        for (std::size_t n : sizes)
            for (int parts : {1, 2, 3, 4, 7, 16})
                for (int trial = 0; trial < 3; ++trial) check_splits<precision::deterministic, TestType>(n, parts, rng, &b);
    }
    for (std::size_t n : sizes)
        for (int parts : {1, 2, 5, 16}) {
            check_splits<precision::deterministic, TestType>(n, parts, rng, nullptr);
            check_splits<precision::compensated, TestType>(n, parts, rng, nullptr);
        }
}

TEMPLATE_TEST_CASE("nodes of any level pushed in sequence order give the bits of the block tree", "[parts]", float,
                   double) {
    // What the GPUs of one process hand over: block values and aligned groups of 2^g blocks
    // (whole subtrees), the groups possibly clipped at the last block.
    std::mt19937_64 rng(test::seed());
    for (std::size_t m : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{8}, std::size_t{9},
                          std::size_t{63}, std::size_t{64}, std::size_t{65}, std::size_t{1000}}) {
        const std::size_t n = m * fixed_order::block - (rng() % 2 ? 17 : 0);
        const auto x = test::random_values<TestType>(n, n + m);
        const TestType want = reduce(backend::seq, x, sum, {.precision = precision::deterministic});
        for (std::uint64_t g : {0u, 1u, 3u, 5u}) {
            const std::uint64_t G = std::uint64_t{1} << g;
            auto t = fixed_order::empty_tree<precision::deterministic, TestType>(n, 0);
            t->last = n;
            for (std::uint64_t b = 0; b < m;) {
                const bool group = b % G == 0 && rng() % 2 == 0;
                const std::uint64_t stop = group ? std::min<std::uint64_t>(b + G, m) : b + 1;
                fixed_order::push_node(*t, {group ? g : 0, group ? b >> g : b,
                                    node_value<precision::deterministic>(x, b, stop, nullptr)});
                b = stop;
            }
            TestType root{};
            INFO("m = " << m << " blocks, groups of " << G);
            REQUIRE(fixed_order::root_value(*t, root));
            CHECK(bits(root) == bits(want));
        }
    }
}

TEST_CASE("parts that do not meet are reported, not summed", "[parts]") {
    constexpr precision P = precision::deterministic;
    const std::vector<float> x(10000, 1.0f);
    const backend seq = backend::seq;
    auto a = tree_of<P>(x, 0, 3000, &seq);
    auto c = tree_of<P>(x, 5000, 5000, &seq);
    auto ac = joined(*a, *c);  // a gap of 2000 elements
    float v = 0;
    CHECK(ac->failed);
    CHECK_FALSE(fixed_order::root_value(*ac, v));
    auto b = tree_of<P>(x, 3000, 2000, &seq);
    auto ab = joined(*a, *b);
    CHECK_FALSE(fixed_order::root_value(*ab, v));  // [0, 5000) of 10000: not the whole sequence
    auto abc = joined(*ab, *c);
    REQUIRE(fixed_order::root_value(*abc, v));
    CHECK(v == 10000.0f);
}
