// One reduction over several GPUs: options::gpus through the compiled front end (host,
// pinned and managed data split over GPUs) and preduce::cuda::reduce_parts (data already on
// the GPUs, in parts of any size, empty ones too). Every result is compared with the seq
// backend on fresh random data (PREDUCE_TEST_SEED repeats a run): exact operations exactly
// (floats bit for bit, NaN and ties included), fast float sums within Higham's bound, and
// precision::deterministic / compensated bit for bit against seq and against one GPU.
//
// Catch2 cases in three groups, by tag (tests/support/cuda_main.cpp runs each where it can):
//   [plan]   the host side of the fixed order (multi_gpu/plan.hpp) against fixed_order::reduce_serial,
//            with the GPUs' share simulated on the host: needs no GPU, runs everywhere
//   [one]    everything one GPU can run (reduce_parts with all parts on GPU 0, gpus = 0/1,
//            the bad-argument cases); skipped (exit 77) without a GPU
//   [multi]  the same over every visible GPU (parts spread round-robin, gpus = 2 and 0);
//            skipped (exit 77), saying so, when fewer than 2 GPUs are visible
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "preduce/cuda/multi_gpu/plan.hpp"
#include "preduce/cuda/reduce.cuh"
#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "custom/ops.hpp"
#include "preduce/preduce.hpp"
#include "support/data.hpp"

namespace {

// The seed of the random data, shown with a failure.
std::string seed_note() {
    return "seed " + std::to_string(preduce::test::seed()) + " (set PREDUCE_TEST_SEED to repeat)";
}

template <class T>
std::string str(T v) {
    if constexpr (std::is_floating_point_v<T>) {
        char b[64];
        std::snprintf(b, sizeof b, "%a", static_cast<double>(v));
        return b;
    } else {
        return std::to_string(v);
    }
}

// Bit-for-bit equality of results (floats: the same bits, so NaN == NaN and -0 != +0).
template <class T>
bool same(const T& a, const T& b) {
    if constexpr (std::is_floating_point_v<T> || std::is_integral_v<T>) {
        return std::memcmp(&a, &b, sizeof(T)) == 0;
    } else if constexpr (requires { a.index; }) {
        return same(a.value, b.value) && a.index == b.index;
    } else if constexpr (requires { a.min; }) {
        return same(a.min, b.min) && same(a.max, b.max);
    } else {
        return a == b;
    }
}

template <class T>
constexpr double unit_roundoff() {
    if constexpr (std::is_same_v<T, float>) return 0x1p-24;
    else return 0x1p-53;
}

// ---- [plan]: multi_gpu/plan.hpp on the host ----------------------------------------------------

// A float sum whose lift depends on the element's global position: a straddling block
// lifted with local instead of global indices gives other bits.
struct weighted_sum {
    using value_type = float;
    using accumulator_type = float;
    using result_type = float;
    static float identity() { return -0.0f; }
    float lift(float x, std::size_t i) const { return x * static_cast<float>(i % 7 + 1); }
    float finish(float a) const { return a; }
};

namespace multi = preduce::cuda::detail::multi;
namespace fixed_order = preduce::detail::fixed_order;

// The share each part would compute on its GPU, computed here on the host instead, then
// joined as multi_gpu.cuh joins the GPUs' results: must equal the single-thread fixed order
// bit for bit.
template <preduce::precision P, class R>
typename R::result_type simulate(const R& r, const std::vector<float>& x, const std::vector<std::size_t>& lengths,
                                 std::size_t G) {
    using A = typename R::accumulator_type;
    using V = fixed_order::value_t<P, A>;
    const std::size_t total = x.size();
    const std::size_t m = fixed_order::block_count(total);
    std::vector<multi::fixed_share> shares;
    std::vector<multi::fixed_result<A, V>> results;
    std::size_t offset = 0;
    for (std::size_t n : lengths) {
        const multi::fixed_share s = n == 0 ? multi::fixed_share{} : multi::fixed_share_of(offset, n, total, G);
        // whole blocks lie inside the part, whole groups inside those
        if (!s.blocks.empty()) {
            INFO("whole blocks inside the part " << offset << " + " << n);
            CHECK(s.blocks.begin * fixed_order::block >= offset);
            CHECK(std::min(s.blocks.end * fixed_order::block, total) <= offset + n);
        }
        multi::fixed_result<A, V> res;
        for (std::size_t b = s.blocks.begin; b < s.head_end; ++b) res.head.push_back(fixed_order::block_value<P>(r, x.data(), total, b));
        for (std::size_t g = s.groups.begin; g < s.groups.end; ++g) {
            std::vector<V> v;
            for (std::size_t b = g * G; b < std::min((g + 1) * G, m); ++b) v.push_back(fixed_order::block_value<P>(r, x.data(), total, b));
            res.groups.push_back(fixed_order::block_tree<P, A>(v.data(), v.size(), R::identity()));
        }
        for (std::size_t b = s.tail_begin; b < s.blocks.end; ++b) res.tail.push_back(fixed_order::block_value<P>(r, x.data(), total, b));
        for (std::size_t i = s.lead.begin; i < s.lead.end; ++i) res.lead.push_back(r.lift(x[i], i));
        for (std::size_t i = s.trail.begin; i < s.trail.end; ++i) res.trail.push_back(r.lift(x[i], i));
        shares.push_back(s);
        results.push_back(std::move(res));
        offset += n;
    }
    V root{};
    INFO("the parts join into the whole tree");
    CHECK(multi::join<P, A>(shares, results, total, G, root));
    return r.finish(fixed_order::result<P, A>(root));
}
} // namespace

TEST_CASE("plan: split() cuts n elements into k contiguous, block-aligned parts that cover them and differ by at most "
          "a block",
          "[plan]") {
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{4095}, std::size_t{4096}, std::size_t{4097},
                          std::size_t{1} << 20, (std::size_t{1} << 30) + 5, (std::size_t{1} << 33) + 4097})
        for (std::size_t k = 1; k <= 9; ++k) {
            const auto parts = multi::split(n, k);
            CAPTURE(n, k);
            std::size_t at = 0, lo = SIZE_MAX, hi = 0;
            bool ok = parts.size() == k;
            for (const auto& p : parts) {
                ok = ok && p.begin == at && p.end >= p.begin && (p.begin % fixed_order::block == 0 || p.begin == n);
                at = p.end;
                lo = std::min(lo, p.size());
                hi = std::max(hi, p.size());
            }
            {
                INFO("parts are contiguous, block-aligned and cover [0, n)");
                CHECK(ok);
                CHECK(at == n);
            }
            INFO("parts differ by at most one block: " << lo << ".." << hi);
            CHECK((hi - std::min(lo, hi) <= fixed_order::block || n % fixed_order::block != 0));
        }
}

TEST_CASE("plan: the fixed order joined from parts simulated on the host has fixed_order::reduce_serial's bits", "[plan]") {
    INFO(seed_note());
    std::mt19937_64 rng(preduce::test::seed() ^ 0x71a9);
    // The fixed order assembled from parts, against fixed_order::reduce_serial.
    const std::size_t sizes[] = {0, 1, 31, 4095, 4096, 4097, 8191, 8192, 8193, 5 * 4096 + 17, 16 * 4096, 16 * 4096 + 1,
                                 37 * 4096 + 4095, 100003};
    for (std::size_t total : sizes) {
        std::vector<float> x = preduce::test::random_values<float>(total, total);
        for (std::size_t G : {std::size_t{1}, std::size_t{2}, std::size_t{4}, std::size_t{8}, std::size_t{2048}})
            for (int layout = 0; layout < 12; ++layout) {
                // Random cuts, empty parts and one-element parts included; layout 0: one part.
                std::vector<std::size_t> cuts{0, total};
                const int extra = layout == 0 ? 0 : static_cast<int>(rng() % 7);
                for (int c = 0; c < extra; ++c) {
                    std::size_t at = total == 0 ? 0 : rng() % (total + 1);
                    if (rng() % 3 == 0) at = std::min(total, at / fixed_order::block * fixed_order::block);  // on a block edge
                    cuts.push_back(at);
                    if (rng() % 4 == 0) cuts.push_back(std::min(total, at + 1));
                }
                std::sort(cuts.begin(), cuts.end());
                std::vector<std::size_t> lengths;
                for (std::size_t c = 1; c < cuts.size(); ++c) lengths.push_back(cuts[c] - cuts[c - 1]);
                INFO("plan n = " << total << ", G = " << G << ", " << lengths.size() << " parts");
                const preduce::sum_reducer<float> sum{};
                const weighted_sum w{};
                const auto sdet = simulate<preduce::precision::deterministic>(sum, x, lengths, G);
                const auto scomp = simulate<preduce::precision::compensated>(sum, x, lengths, G);
                const auto wdet = simulate<preduce::precision::deterministic>(w, x, lengths, G);
                const auto wcomp = simulate<preduce::precision::compensated>(w, x, lengths, G);
                CHECK(same(sdet, fixed_order::reduce_serial<preduce::precision::deterministic>(sum, x.data(), total)));
                CHECK(same(scomp, fixed_order::reduce_serial<preduce::precision::compensated>(sum, x.data(), total)));
                // the index-weighted sum
                CHECK(same(wdet, fixed_order::reduce_serial<preduce::precision::deterministic>(w, x.data(), total)));
                CHECK(same(wcomp, fixed_order::reduce_serial<preduce::precision::compensated>(w, x.data(), total)));
            }
    }
}

namespace {

// ---- [one] and [multi]: on the GPUs -----------------------------------------------------

// A CUDA call the case cannot go on without (allocations, copies): its failure ends the case.
#define CUDA_OK(call)                                                                                 \
    do {                                                                                              \
        const cudaError_t e_ = (call);                                                                \
        if (e_ != cudaSuccess) FAIL("CUDA call failed: " #call ": " << cudaGetErrorString(e_));       \
    } while (0)

// One part's copy in the memory of its GPU.
template <class T>
struct device_copy {
    T* p = nullptr;
    device_copy(int device, const T* from, std::size_t n) {
        if (n == 0) return;
        int previous = 0;
        CUDA_OK(cudaGetDevice(&previous));
        CUDA_OK(cudaSetDevice(device));
        CUDA_OK(cudaMalloc(&p, n * sizeof(T)));
        CUDA_OK(cudaMemcpy(p, from, n * sizeof(T), cudaMemcpyHostToDevice));
        CUDA_OK(cudaDeviceSynchronize());  // the DMA of a pageable copy may outlive cudaMemcpy
        CUDA_OK(cudaSetDevice(previous));
    }
    device_copy(const device_copy&) = delete;
    device_copy(device_copy&& o) noexcept : p(std::exchange(o.p, nullptr)) {}
    ~device_copy() {
        if (p != nullptr) cudaFree(p);
    }
};

// An input cut into parts, each copied to its GPU.
template <class T>
struct spread {
    std::vector<device_copy<T>> copies;
    std::vector<preduce::cuda::device_part<T>> parts;
    std::string shape;
    spread(const std::vector<T>& x, const std::vector<std::size_t>& lengths, int devices) {
        std::size_t at = 0;
        for (std::size_t i = 0; i < lengths.size(); ++i) {
            const int d = static_cast<int>(i % static_cast<std::size_t>(devices));
            copies.emplace_back(d, x.data() + at, lengths[i]);
            parts.push_back({d, copies.back().p, lengths[i]});
            if (i != 0) shape += ',';
            shape += std::to_string(lengths[i]);
            shape += '@';
            shape += std::to_string(d);
            at += lengths[i];
        }
    }
};

// Part layouts for n elements: even cuts (off the block grid), uneven with empty and
// one-element parts, and random cuts.
std::vector<std::vector<std::size_t>> layouts(std::size_t n, int devices, std::mt19937_64& rng) {
    std::vector<std::vector<std::size_t>> out;
    {
        std::vector<std::size_t> even;
        const std::size_t k = static_cast<std::size_t>(std::max(devices, 2));
        for (std::size_t i = 0; i < k; ++i) even.push_back(n * (i + 1) / k - n * i / k);
        out.push_back(even);
    }
    {
        std::vector<std::size_t> uneven{0};
        std::size_t left = n;
        for (std::size_t want : {std::size_t{1}, std::size_t{4095}, std::size_t{0}, std::size_t{4097}, std::size_t{3}}) {
            const std::size_t take = std::min(left, want);
            uneven.push_back(take);
            left -= take;
        }
        uneven.push_back(left * 2 / 3);
        uneven.push_back(left - left * 2 / 3);
        uneven.push_back(0);
        out.push_back(uneven);
    }
    {
        std::vector<std::size_t> cuts{0, n};
        for (int c = 0; c < 4; ++c) cuts.push_back(n == 0 ? 0 : rng() % (n + 1));
        std::sort(cuts.begin(), cuts.end());
        std::vector<std::size_t> random;
        for (std::size_t c = 1; c < cuts.size(); ++c) random.push_back(cuts[c] - cuts[c - 1]);
        out.push_back(random);
    }
    return out;
}

template <class T>
T threshold_of(const std::vector<T>& x) {
    if (x.empty()) return T(0);
    return x[x.size() / 2];  // about half the elements are greater
}

// Every built-in op through `run(op, options)` against the seq backend over x.
template <class T, class Run>
void check_ops(const std::vector<T>& x, Run&& run) {
    using preduce::backend;
    const std::size_t n = x.size();
    const auto seq = [&](const auto& op, const preduce::options& o = {}) {
        return preduce::reduce(backend::seq, x.data(), n, op, o);
    };
    const double u = unit_roundoff<T>();
    if constexpr (std::is_floating_point_v<T>) {
        long double abs = 0, sq = 0;
        for (T v : x) {
            abs += std::fabs(static_cast<long double>(v));
            sq += static_cast<long double>(v) * v;
        }
        const double s = run(preduce::sum, {}), want = seq(preduce::sum);
        {
            INFO("sum within 2 n u sum|x| of seq: " << str(s) << " vs " << str(want));
            CHECK(std::fabs(s - want) <= 2.0 * static_cast<double>(n) * u * static_cast<double>(abs));
        }
        const double q = run(preduce::sumsq, {}), wq = seq(preduce::sumsq);
        {
            INFO("sumsq within 2 n u sum x^2 of seq: " << str(q) << " vs " << str(wq));
            CHECK(std::fabs(q - wq) <= 2.0 * static_cast<double>(n) * u * static_cast<double>(sq));
        }
        // The fixed orders: the bits of seq, whatever the parts.
        for (auto p : {preduce::precision::deterministic, preduce::precision::compensated}) {
            const preduce::options o{.precision = p};
            INFO("bits, " << preduce::name(p));
            CHECK(same(run(preduce::sum, o), seq(preduce::sum, o)));
            CHECK(same(run(preduce::sumsq, o), seq(preduce::sumsq, o)));
            CHECK(same(run(preduce::asum, o), seq(preduce::asum, o)));
            CHECK(same(run(preduce::wide_sum, o), seq(preduce::wide_sum, o)));
        }
        const auto m = run(preduce::moments, {}), wm = seq(preduce::moments);
        double big = 0;
        for (T v : x) big = std::max(big, std::fabs(static_cast<double>(v)));
        CHECK(m.count == wm.count);
        if (n == 0) {
            CHECK(std::isnan(m.mean));
        } else {
            INFO("mean: " << str(m.mean) << " vs " << str(wm.mean));
            CHECK(std::fabs(m.mean - wm.mean) <= 8.0 * static_cast<double>(n) * 0x1p-53 * big);
        }
        // Chan's merges in another order: a relative difference of a few n u in double
        if (n >= 2) {
            INFO("m2: " << str(m.m2) << " vs " << str(wm.m2));
            CHECK(std::fabs(m.m2 - wm.m2) <= 1e-8 * wm.m2);
        }
        if (n == 0) CHECK(std::isnan(run(preduce::mean, {})));  // the mean of nothing is NaN
    } else {
        // Integers: exact, wrapping, in every order.
        CHECK(same(run(preduce::sum, {}), seq(preduce::sum)));
        CHECK(same(run(preduce::wide_sum, {}), seq(preduce::wide_sum)));
        CHECK(same(run(preduce::sumsq, {}), seq(preduce::sumsq)));
        const preduce::options d{.precision = preduce::precision::deterministic};
        CHECK(same(run(preduce::sum, d), seq(preduce::sum)));  // deterministic: exact anyway
        const auto m = run(preduce::moments, {}), wm = seq(preduce::moments);
        CHECK(m.count == wm.count);
    }
    CHECK(same(run(preduce::min, {}), seq(preduce::min)));
    CHECK(same(run(preduce::max, {}), seq(preduce::max)));
    CHECK(same(run(preduce::argmin, {}), seq(preduce::argmin)));
    CHECK(same(run(preduce::argmax, {}), seq(preduce::argmax)));
    CHECK(same(run(preduce::minmax, {}), seq(preduce::minmax)));
    const T t = threshold_of(x);
    CHECK(run(preduce::count_if(preduce::greater(t)), {}) == seq(preduce::count_if(preduce::greater(t))));
    // argmin/argmax with the exact-order option (exact operations ignore it)
    const preduce::options c{.precision = preduce::precision::compensated};
    CHECK(same(run(preduce::argmax, c), seq(preduce::argmax)));
}

// Only the exact ops (min/max/arg*/minmax/count_if) over data with NaN and ties.
template <class T, class Run>
void check_exact_ops(const std::vector<T>& x, Run&& run) {
    const auto seq = [&](const auto& op) { return preduce::reduce(preduce::backend::seq, x.data(), x.size(), op); };
    INFO("data with NaN and ties");
    CHECK(same(run(preduce::min, {}), seq(preduce::min)));
    CHECK(same(run(preduce::max, {}), seq(preduce::max)));
    {
        const auto got = run(preduce::argmin, {}), want = seq(preduce::argmin);
        INFO("argmin index " << got.index << " vs " << want.index);
        CHECK(same(got, want));
    }
    CHECK(same(run(preduce::argmax, {}), seq(preduce::argmax)));
    CHECK(same(run(preduce::minmax, {}), seq(preduce::minmax)));
}

// prod on its own data (values near 1 / odd integers, so the product is neither 0 nor inf).
template <class T, class Run>
void check_prod(const std::vector<T>& x, Run&& run) {
    const T want = preduce::reduce(preduce::backend::seq, x.data(), x.size(), preduce::prod);
    const T got = run(preduce::prod, {});
    if constexpr (std::is_floating_point_v<T>) {
        INFO("prod within 2 n u |p| of seq: " << str(got) << " vs " << str(want));
        CHECK(std::fabs(static_cast<double>(got) - static_cast<double>(want)) <=
              2.0 * static_cast<double>(x.size()) * unit_roundoff<T>() * std::fabs(static_cast<double>(want)));
    } else {
        CHECK(got == want);  // prod, wrapping
    }
}

// Data with NaNs (floats) and many ties: the first NaN, and the lowest index among equals,
// must win across part and GPU boundaries.
template <class T>
std::vector<T> nan_tie_values(std::size_t n, std::uint64_t salt, const std::vector<std::size_t>& edges) {
    std::vector<T> v = preduce::test::tie_values<T>(n, salt);
    if constexpr (std::is_floating_point_v<T>) {
        std::mt19937_64 rng(preduce::test::seed() ^ salt ^ 0x3a3a);
        if (n > 0 && salt % 2 == 0) {
            // NaNs right at part boundaries and one at random
            for (std::size_t e : edges)
                if (e < n) v[e] = std::numeric_limits<T>::quiet_NaN();
            v[rng() % n] = -std::numeric_limits<T>::quiet_NaN();
        }
    }
    return v;
}

std::vector<std::size_t> edges_of(const std::vector<std::size_t>& lengths) {
    std::vector<std::size_t> e;
    std::size_t at = 0;
    for (std::size_t l : lengths) {
        at += l;
        e.push_back(at);
    }
    return e;
}

// The order-checking user operation of tests/custom/ops.hpp.
using custom_test::in_order;

// Global indices in order, left before right: every element seen once, first 0, last n - 1.
void check_in_order(const in_order::seen& s, std::size_t n, const char* what) {
    INFO(what << ": state " << s.state << ", " << s.first << ".." << s.last);
    if (n == 0) {
        CHECK(s.state == 0);
    } else {
        CHECK(s.state == 1);
        CHECK(s.first == 0);
        CHECK(s.last == n - 1);
    }
}

template <class T>
void type_cases(int devices, std::mt19937_64& rng) {
    const std::string type = preduce::detail::type_name<T>();
    // reduce_parts: parts of every shape, on `devices` GPUs round-robin.
    const std::size_t part_sizes[] = {0,     1,     2,      33,     4095,   4096,  4097, 8191, 8193,
                                      3 * 4096 + 1, 32769, 100003, (std::size_t{1} << 20) + 4097};
    std::uint64_t salt = 1;
    for (std::size_t n : part_sizes) {
        const std::vector<T> x = preduce::test::random_values<T>(n, salt++);
        const std::vector<T> px = preduce::test::product_values<T>(n, salt++);
        for (const auto& lengths : layouts(n, devices, rng)) {
            const spread<T> s(x, lengths, devices);
            INFO(type << ", reduce_parts, n = " << n << ", parts " << s.shape);
            const auto run = [&](const auto& op, const preduce::options& o) { return preduce::cuda::reduce_parts(s.parts, op, o); };
            check_ops(x, run);
            const spread<T> sp(px, lengths, devices);
            check_prod(px, [&](const auto& op, const preduce::options& o) { return preduce::cuda::reduce_parts(sp.parts, op, o); });
            const std::vector<T> nt = nan_tie_values<T>(n, salt++, edges_of(lengths));
            const spread<T> st(nt, lengths, devices);
            check_exact_ops(nt, [&](const auto& op, const preduce::options& o) {
                return preduce::cuda::reduce_parts(st.parts, op, o);
            });
        }
    }
    // Host data with options::gpus: 0 (all), 1 and `devices`; below 2^20 elements one GPU
    // does it all, above it each GPU takes a block-aligned part.
    const std::size_t host_sizes[] = {0, 1, 4097, (std::size_t{1} << 20) - 1, std::size_t{1} << 20,
                                      (std::size_t{1} << 20) + 4097, 3 * (std::size_t{1} << 20) + 777};
    for (std::size_t n : host_sizes) {
        const std::vector<T> x = preduce::test::random_values<T>(n, salt++);
        const std::vector<T> px = preduce::test::product_values<T>(n, salt++);
        const std::vector<T> nt = nan_tie_values<T>(n, salt++, {n / 2, n / 2 - 1, n / 4});
        for (int g : {0, 1, devices}) {
            INFO(type << ", host data, n = " << n << ", gpus = " << g);
            const auto on = [g](const std::vector<T>& data) {
                return [g, &data](const auto& op, preduce::options o) {
                    o.gpus = g;
                    return preduce::reduce(preduce::backend::cuda, data.data(), data.size(), op, o);
                };
            };
            check_ops(x, on(x));
            check_prod(px, on(px));
            check_exact_ops(nt, on(nt));
            // the fixed orders: the bits of one GPU too
            for (auto p : {preduce::precision::deterministic, preduce::precision::compensated}) {
                const preduce::options many{.gpus = g, .precision = p};
                const preduce::options one{.gpus = 1, .precision = p};
                INFO("sum bits as one GPU, " << preduce::name(p));
                CHECK(same(preduce::reduce(preduce::backend::cuda, x, preduce::sum, many),
                           preduce::reduce(preduce::backend::cuda, x, preduce::sum, one)));
            }
            if constexpr (std::is_floating_point_v<T>) {
                // two inputs split together (a zip source)
                const std::vector<T> y = preduce::test::random_values<T>(n, salt++);
                for (auto p : {preduce::precision::deterministic, preduce::precision::compensated}) {
                    INFO("dot bits, " << preduce::name(p));
                    CHECK(same(preduce::reduce(preduce::backend::cuda, x, y, preduce::dot, {.gpus = g, .precision = p}),
                               preduce::reduce(preduce::backend::seq, x, y, preduce::dot, {.precision = p})));
                }
            }
        }
    }
}

// The fixed order over inputs large enough that each GPU folds whole groups of blocks
// (fixed::tree_group: 8192 blocks of float values, 2048 of compensated pairs) on the GPU.
template <class T>
void large_fixed_cases(int devices, std::size_t n, std::mt19937_64& rng) {
    const std::string type = preduce::detail::type_name<T>();
    const std::vector<T> x = preduce::test::random_values<T>(n, 0xb16);
    std::vector<std::vector<std::size_t>> shapes = layouts(n, devices, rng);
    // a first part that holds whole groups and ends off the block grid, a 5-element part, an
    // empty one, and the rest (which ends with the short last block)
    const std::size_t first = n / 2 + 3 * 4096 + 7;
    shapes.push_back({first, 5, 0, n - first - 5});
    for (auto p : {preduce::precision::deterministic, preduce::precision::compensated}) {
        const preduce::options o{.precision = p};
        const T want = preduce::reduce(preduce::backend::seq, x, preduce::sum, o);
        for (int g : {0, devices}) {
            INFO(type << ", large host data, n = " << n << ", gpus = " << g << ", " << preduce::name(p));
            CHECK(same(preduce::reduce(preduce::backend::cuda, x, preduce::sum, {.gpus = g, .precision = p}), want));
        }
        for (const auto& lengths : shapes) {
            const spread<T> s(x, lengths, devices);
            INFO(type << ", large reduce_parts, n = " << n << ", parts " << s.shape << ", " << preduce::name(p));
            CHECK(same(preduce::cuda::reduce_parts(s.parts, preduce::sum, o), want));
            if (p == preduce::precision::deterministic) {
                const auto am = preduce::cuda::reduce_parts(s.parts, preduce::argmin);
                CHECK(same(am, preduce::reduce(preduce::backend::seq, x, preduce::argmin)));
            }
        }
    }
}

// Pinned and managed host memory split over GPUs (each GPU reads its part in place).
void residency_cases(int devices) {
    const std::size_t n = (std::size_t{1} << 21) + 4097;
    const std::vector<float> x = preduce::test::random_values<float>(n, 0x9e11);
    const preduce::options o{.gpus = devices, .precision = preduce::precision::compensated};
    const float want = preduce::reduce(preduce::backend::seq, x, preduce::sum, {.precision = o.precision});
    const auto want_arg = preduce::reduce(preduce::backend::seq, x, preduce::argmax);
    float* pinned = nullptr;
    CUDA_OK(cudaMallocHost(&pinned, n * sizeof(float)));
    std::memcpy(pinned, x.data(), n * sizeof(float));
    {
        INFO("pinned host memory, gpus = " << devices);
        CHECK(same(preduce::reduce(preduce::backend::cuda, pinned, n, preduce::sum, o), want));
        CHECK(same(preduce::reduce(preduce::backend::cuda, pinned, n, preduce::argmax, {.gpus = devices}), want_arg));
    }
    CUDA_OK(cudaFreeHost(pinned));
    float* managed = nullptr;
    CUDA_OK(cudaMallocManaged(&managed, n * sizeof(float)));
    std::memcpy(managed, x.data(), n * sizeof(float));
    INFO("managed memory, gpus = " << devices);
    CHECK(same(preduce::reduce(preduce::backend::cuda, managed, n, preduce::sum, o), want));
    CHECK(same(preduce::reduce(preduce::backend::cuda, managed, n, preduce::argmax, {.gpus = devices}), want_arg));
    // managed memory as parts
    const std::vector<preduce::cuda::device_part<float>> parts{{0, managed, n / 3}, {devices - 1, managed + n / 3, n - n / 3}};
    CHECK(same(preduce::cuda::reduce_parts(parts, preduce::sum, {.precision = o.precision}), want));
    CUDA_OK(cudaFree(managed));
}

// Non-commutative user operations keep operand order across parts and GPUs.
void order_cases(int devices, std::mt19937_64& rng) {
    for (std::size_t n : {std::size_t{0}, std::size_t{5}, std::size_t{40000}, (std::size_t{1} << 20) + 3}) {
        const std::vector<float> x(n, 1.0f);
        for (const auto& lengths : layouts(n, devices, rng)) {
            const spread<float> s(x, lengths, devices);
            INFO("in_order, reduce_parts, n = " << n << ", parts " << s.shape);
            check_in_order(preduce::cuda::reduce_parts(s.parts, in_order{}), n, "reduce_parts");
        }
        INFO("in_order, host data, n = " << n);
        check_in_order(preduce::cuda::reduce(x.data(), n, in_order{}, {.gpus = devices}), n, "gpus = devices");
        check_in_order(preduce::cuda::reduce(x.data(), n, in_order{}, {.gpus = 0}), n, "gpus = 0");
    }
}

// Bad arguments: a preduce::invalid_argument with a one-line message naming the problem.
template <class F>
void check_invalid(const char* what, const std::string& needle, F&& f) {
    INFO(what);
    try {
        f();
        FAIL_CHECK("no exception");
    } catch (const preduce::invalid_argument& e) {
        const std::string m = e.what();
        INFO("message '" << m << "' should name '" << needle << "' on one line");
        CHECK(m.find(needle) != std::string::npos);
        CHECK(m.find('\n') == std::string::npos);
    } catch (const std::exception& e) {
        FAIL_CHECK("wrong exception: " << e.what());
    }
}

void argument_cases(int visible, int devices) {
    const std::vector<float> x(1000, 1.0f);
    const std::string count = std::to_string(visible) + " GPU";
    check_invalid("gpus < 0", "options::gpus = -1", [&] { (void)preduce::reduce(preduce::backend::cuda, x, preduce::sum, {.gpus = -1}); });
    check_invalid("gpus > visible", count, [&] {
        (void)preduce::reduce(preduce::backend::cuda, x, preduce::sum, {.gpus = visible + 1});
    });
    check_invalid("gpus > visible, empty input", count, [&] {
        (void)preduce::reduce(preduce::backend::cuda, x.data(), 0, preduce::sum, {.gpus = visible + 1});
    });
    cudaStream_t stream = nullptr;
    CUDA_OK(cudaStreamCreate(&stream));
    check_invalid("stream with gpus = 0", "options::stream", [&] {
        (void)preduce::reduce(preduce::backend::cuda, x, preduce::sum, {.stream = stream, .gpus = 0});
    });
    check_invalid("stream with gpus = 2", "options::stream", [&] {
        (void)preduce::reduce(preduce::backend::cuda, x, preduce::sum, {.stream = stream, .gpus = 2});
    });
    // device memory through the front end with gpus != 1: it lives on one GPU
    device_copy<float> d0(0, x.data(), x.size());
    check_invalid("device memory with gpus = 0", "reduce_parts", [&] {
        (void)preduce::reduce(preduce::backend::cuda, d0.p, x.size(), preduce::sum, {.gpus = 0});
    });
    using part = preduce::cuda::device_part<float>;
    const auto parts_of = [](std::vector<part> v) { return v; };
    check_invalid("reduce_parts: device -1", "device -1", [&] { (void)preduce::cuda::reduce_parts(parts_of({{-1, d0.p, 10}}), preduce::sum); });
    check_invalid("reduce_parts: device out of range", count, [&] {
        (void)preduce::cuda::reduce_parts(parts_of({{0, d0.p, 10}, {visible, d0.p, 10}}), preduce::sum);
    });
    check_invalid("reduce_parts: device out of range, empty part", "names device", [&] {
        (void)preduce::cuda::reduce_parts(parts_of({{visible, nullptr, 0}}), preduce::sum);
    });
    check_invalid("reduce_parts: null data", "null", [&] { (void)preduce::cuda::reduce_parts(parts_of({{0, nullptr, 5}}), preduce::sum); });
    check_invalid("reduce_parts: pageable host data", "not memory of GPU 0", [&] {
        (void)preduce::cuda::reduce_parts(parts_of({{0, x.data(), x.size()}}), preduce::sum);
    });
    float* pinned = nullptr;
    CUDA_OK(cudaMallocHost(&pinned, 64 * sizeof(float)));
    check_invalid("reduce_parts: pinned host data", "pinned host memory", [&] {
        (void)preduce::cuda::reduce_parts(parts_of({{0, pinned, 64}}), preduce::sum);
    });
    CUDA_OK(cudaFreeHost(pinned));
    check_invalid("reduce_parts: n past the allocation", "data + n - 1", [&] {
        (void)preduce::cuda::reduce_parts(parts_of({{0, d0.p, std::size_t{1} << 40}}), preduce::sum);
    });
    check_invalid("reduce_parts: misaligned", "aligned", [&] {
        (void)preduce::cuda::reduce_parts(
            parts_of({{0, reinterpret_cast<const float*>(reinterpret_cast<const char*>(d0.p) + 2), 10}}), preduce::sum);
    });
    check_invalid("reduce_parts: stream", "options::stream", [&] {
        (void)preduce::cuda::reduce_parts(parts_of({{0, d0.p, 10}}), preduce::sum, {.stream = stream});
    });
    check_invalid("reduce_parts: deterministic moments", "precision", [&] {
        (void)preduce::cuda::reduce_parts(parts_of({{0, d0.p, 10}}), preduce::moments,
                                          {.precision = preduce::precision::deterministic});
    });
    if (devices >= 2) {
        check_invalid("reduce_parts: data on another GPU", "memory of GPU 0", [&] {
            (void)preduce::cuda::reduce_parts(parts_of({{1, d0.p, 10}}), preduce::sum);
        });
    }
    CUDA_OK(cudaStreamDestroy(stream));
    // the empty cases that are fine: no parts and empty parts give the identity, argmin no index
    CHECK(same(preduce::cuda::reduce_parts(std::vector<part>{}, preduce::sum), -0.0f));
    CHECK(preduce::cuda::reduce_parts(parts_of({{0, nullptr, 0}, {devices - 1, nullptr, 0}}), preduce::argmin).index ==
          preduce::no_index);
    CHECK(same(preduce::cuda::reduce_parts(parts_of({{0, nullptr, 0}}), preduce::sum, {.precision = preduce::precision::compensated}),
               -0.0f));
}

// GPUs visible to this process.
int visible_gpus() {
    int visible = 0;
    CUDA_OK(cudaGetDeviceCount(&visible));
    return visible;
}

// The GPUs a case spreads its work over: GPU 0 alone for the [one] cases, every visible GPU
// for the [multi] cases (tests/support/cuda_main.cpp runs those only where 2 or more are).
int gpus_for(bool multi) {
    const int visible = visible_gpus();
    if (multi) REQUIRE(visible >= 2);
    return multi ? visible : 1;
}

// What a failure report needs to repeat the case: the GPUs and the seed.
std::string gpu_note(int devices) {
    return std::to_string(visible_gpus()) + " GPU(s) visible, cases over " + std::to_string(devices) + ", " + seed_note();
}

// The random part layouts of a case.
std::mt19937_64 layout_rng() { return std::mt19937_64(preduce::test::seed() ^ 0x6a09e667); }

void argument_case(bool multi) {
    const int devices = gpus_for(multi);
    INFO(gpu_note(devices));
    argument_cases(visible_gpus(), devices);
}

void order_case(bool multi) {
    const int devices = gpus_for(multi);
    INFO(gpu_note(devices));
    std::mt19937_64 rng = layout_rng();
    order_cases(devices, rng);
}

void residency_case(bool multi) {
    const int devices = gpus_for(multi);
    INFO(gpu_note(devices));
    residency_cases(devices);
}

template <class T>
void type_case(bool multi) {
    const int devices = gpus_for(multi);
    INFO(gpu_note(devices));
    std::mt19937_64 rng = layout_rng();
    type_cases<T>(devices, rng);
}

template <class T>
void large_fixed_case(bool multi) {
    const int devices = gpus_for(multi);
    INFO(gpu_note(devices));
    std::mt19937_64 rng = layout_rng();
    if constexpr (std::is_same_v<T, float>) large_fixed_cases<float>(devices, (std::size_t{1} << 26) + 5 * 4096 + 17, rng);
    else large_fixed_cases<double>(devices, (std::size_t{1} << 25) + 3 * 4096 + 5, rng);
}

} // namespace

// ---- [one]: everything one GPU can run -------------------------------------------------------

TEST_CASE("one GPU: bad arguments are invalid_argument with a one-line message naming the problem, and empty parts "
          "give the identity",
          "[one]") {
    argument_case(false);
}

TEST_CASE("one GPU: non-commutative user operations keep operand order across parts", "[one]") { order_case(false); }

TEST_CASE("one GPU: pinned and managed host memory, and managed memory as parts", "[one]") { residency_case(false); }

TEMPLATE_TEST_CASE("one GPU: every op over reduce_parts and over host data with options::gpus agrees with seq", "[one]",
                   std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double) {
    type_case<TestType>(false);
}

TEMPLATE_TEST_CASE("one GPU: the fixed order over inputs of whole block groups has seq's bits", "[one]", float, double) {
    large_fixed_case<TestType>(false);
}

// ---- [multi]: the same over every visible GPU (2 or more) -------------------------------------

TEST_CASE("multi-GPU: bad arguments are invalid_argument with a one-line message naming the problem, and empty "
          "parts give the identity",
          "[multi]") {
    argument_case(true);
}

TEST_CASE("multi-GPU: non-commutative user operations keep operand order across parts and GPUs", "[multi]") {
    order_case(true);
}

TEST_CASE("multi-GPU: pinned and managed host memory split over GPUs, and managed memory as parts", "[multi]") {
    residency_case(true);
}

TEMPLATE_TEST_CASE("multi-GPU: every op over reduce_parts and over host data with options::gpus agrees with seq",
                   "[multi]", std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double) {
    type_case<TestType>(true);
}

TEMPLATE_TEST_CASE("multi-GPU: the fixed order over inputs of whole block groups has seq's bits", "[multi]", float,
                   double) {
    large_fixed_case<TestType>(true);
}
