// preduce::cuda::reduce_by_key on device keys and values, against independent oracles
// over the runs found on the host: each run's sum within Higham's bound of its exact sum,
// its argmin/argmax/max exactly as the oracle's; under precision::deterministic each run
// with the bits of preduce::seq reducing that run alone. Runs of mean 1, 7, 3000 and runs
// that cross many tiles (past the 32 tiles of one step of the join), for 32- and 64-bit
// keys, float and double values; NaN and signed-zero keys; the fast order's bits the same
// on every call; and 2^31 + 5 pairs (17 GiB of device memory).
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

#include "oracle/compare.hpp"
#include "oracle/oracle.hpp"
#include "run_sums_oracle.hpp"
#include "preduce/cuda/by_key.cuh"
#include "preduce/errors.hpp"
#include "preduce/ops.hpp"
#include "preduce/seq/reduce.hpp"

namespace {

namespace oracle = preduce::test::oracle;

template <class T>
struct device_copy {
    T* p = nullptr;
    explicit device_copy(const std::vector<T>& h) {
        REQUIRE(cudaMalloc(reinterpret_cast<void**>(&p), (h.size() + 1) * sizeof(T)) == cudaSuccess);
        REQUIRE(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
    }
    ~device_copy() { cudaFree(p); }
    device_copy(const device_copy&) = delete;
    device_copy& operator=(const device_copy&) = delete;
};

// The first element of every run and the end: found here, by operator== as the library says.
template <class K>
std::vector<std::size_t> run_starts(const std::vector<K>& keys) {
    std::vector<std::size_t> s{0};
    for (std::size_t i = 1; i < keys.size(); ++i)
        if (!(keys[i] == keys[i - 1])) s.push_back(i);
    s.push_back(keys.size());
    return s;
}

// Keys in runs of lengths 1 .. 2 mean - 1 (mean 1: every key its own run), one run of
// `longest` in the middle; values of mixed signs and magnitudes.
template <class K, class T>
void make_pairs(std::size_t mean, std::size_t runs, std::size_t longest, std::vector<K>& keys, std::vector<T>& values) {
    std::uint64_t x = 0x9e3779b97f4a7c15ull ^ mean;
    for (std::size_t r = 0; r < runs; ++r) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        std::size_t len = mean == 1 ? 1 : 1 + (x >> 33) % (2 * mean - 1);
        if (r == runs / 2) len = longest;
        for (std::size_t i = 0; i < len; ++i) {
            keys.push_back(static_cast<K>(r % 2 ? static_cast<long long>(r) : -static_cast<long long>(r)));
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            const double m = static_cast<double>(static_cast<int>((x >> 40) % 2001) - 1000) / 997.0;
            values.push_back(static_cast<T>(std::ldexp(m, static_cast<int>((x >> 20) % 17) - 8)));
        }
    }
}

template <class K, class T>
void check_runs(const std::vector<K>& keys, const std::vector<T>& values) {
    const std::size_t n = keys.size();
    const auto starts = run_starts(keys);
    const std::size_t m = starts.size() - 1;
    device_copy<K> dk(keys);
    device_copy<T> dv(values);
    auto run = [&](std::size_t r) { return std::span<const T>(values.data() + starts[r], starts[r + 1] - starts[r]); };

    const auto sums = preduce::cuda::reduce_by_key(dk.p, dv.p, n, preduce::sum);
    REQUIRE(sums.keys.size() == m);
    REQUIRE(sums.values.size() == m);
    std::size_t bad = 0;
    for (std::size_t r = 0; r < m; ++r)
        if (!preduce::test::same(sums.keys[r], keys[starts[r]])) ++bad;
    CHECK(bad == 0);
    CHECK(preduce::test::sums_outside_bound(values, starts, sums.values.data()) == 0);
    // The fast order's bits, call after call.
    const auto again = preduce::cuda::reduce_by_key(dk.p, dv.p, n, preduce::sum);
    CHECK(std::memcmp(again.values.data(), sums.values.data(), m * sizeof(T)) == 0);

    const auto mins = preduce::cuda::reduce_by_key(dk.p, dv.p, n, preduce::argmin);
    const auto maxs = preduce::cuda::reduce_by_key(dk.p, dv.p, n, preduce::argmax);
    const auto tops = preduce::cuda::reduce_by_key(dk.p, dv.p, n, preduce::max);
    REQUIRE(mins.values.size() == m);
    REQUIRE(maxs.values.size() == m);
    REQUIRE(tops.values.size() == m);
    for (std::size_t r = 0; r < m; ++r) {
        if (!preduce::test::same(mins.values[r], oracle::arg_extremum<T, false>(run(r)))) ++bad;
        const auto want_max = oracle::arg_extremum<T, true>(run(r));
        if (!preduce::test::same(maxs.values[r], want_max)) ++bad;
        if (!preduce::test::same(tops.values[r], want_max.value)) ++bad;
    }
    CHECK(bad == 0);

    // Deterministic: each run with the bits of reducing it alone.
    const auto det = preduce::cuda::reduce_by_key(dk.p, dv.p, n, preduce::sum, {.precision = preduce::precision::deterministic});
    REQUIRE(det.values.size() == m);
    for (std::size_t r = 0; r < m; ++r) {
        const T want = preduce::seq::reduce(run(r).data(), run(r).size(), preduce::sum,
                                            {.precision = preduce::precision::deterministic});
        if (!preduce::test::same(det.keys[r], keys[starts[r]]) || std::memcmp(&det.values[r], &want, sizeof(T)) != 0) ++bad;
    }
    CHECK(bad == 0);

    // Device outputs: the count, and nothing past it written.
    K* ko = nullptr;
    T* vo = nullptr;
    REQUIRE(cudaMalloc(reinterpret_cast<void**>(&ko), (m + 1) * sizeof(K)) == cudaSuccess);
    REQUIRE(cudaMalloc(reinterpret_cast<void**>(&vo), (m + 1) * sizeof(T)) == cudaSuccess);
    const T guard = static_cast<T>(12345);
    REQUIRE(cudaMemcpy(vo + m, &guard, sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(preduce::cuda::reduce_by_key(dk.p, dv.p, n, preduce::sum, ko, vo) == m);
    T after{};
    REQUIRE(cudaMemcpy(&after, vo + m, sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(after == guard);
    cudaFree(ko);
    cudaFree(vo);
}

} // namespace

TEST_CASE("reduce_by_key on the GPU: runs of device keys against the oracles", "[by_key]") {
    struct shape {
        std::size_t mean, runs, longest;
    };
    // The longest runs cross a few tiles and 55-90 (past one 32-tile step of the join; a tile
    // holds 1792 to 3072 pairs of these types). Small enough for racecheck (run.sh sanitize).
    const shape shapes[] = {{1, 20000, 1}, {7, 5000, 9000}, {3000, 30, 170000}};
    for (const shape& s : shapes) {
        INFO("mean run " << s.mean << ", longest " << s.longest);
        SECTION("int32 keys, float values " + std::to_string(s.mean) + "/" + std::to_string(s.longest)) {
            std::vector<std::int32_t> k;
            std::vector<float> v;
            make_pairs(s.mean, s.runs, s.longest, k, v);
            check_runs(k, v);
        }
        SECTION("int64 keys, double values " + std::to_string(s.mean) + "/" + std::to_string(s.longest)) {
            std::vector<std::int64_t> k;
            std::vector<double> v;
            make_pairs(s.mean, s.runs, s.longest, k, v);
            check_runs(k, v);
        }
        SECTION("int64 keys, float values " + std::to_string(s.mean) + "/" + std::to_string(s.longest)) {
            std::vector<std::int64_t> k;
            std::vector<float> v;
            make_pairs(s.mean, s.runs, s.longest, k, v);
            check_runs(k, v);
        }
    }
}

TEST_CASE("reduce_by_key on the GPU: NaN keys are runs of their own, -0.0 and +0.0 one run", "[by_key]") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> keys;
    std::vector<double> values;
    for (int i = 0; i < 10000; ++i) {
        const int kind = (i / 3) % 5;
        keys.push_back(kind == 0 ? nan : kind == 1 ? -0.0f : kind == 2 ? 0.0f : static_cast<float>(i / 7));
        values.push_back(static_cast<double>(i % 13) - 6.0);
    }
    check_runs(keys, values);
}

TEST_CASE("reduce_by_key on the GPU: bad input is refused before any work", "[by_key]") {
    std::vector<std::int32_t> keys(100, 1);
    std::vector<float> values(100, 1.0f);
    device_copy<float> dv(values);
    // Pageable keys: the runs of host keys are the front end's job.
    CHECK_THROWS_AS(preduce::cuda::reduce_by_key(keys.data(), dv.p, keys.size(), preduce::sum), preduce::invalid_argument);
    CHECK_THROWS_AS(preduce::cuda::reduce_by_key(static_cast<const std::int32_t*>(nullptr), dv.p, 5, preduce::sum),
                    preduce::invalid_argument);
    CHECK(preduce::cuda::reduce_by_key(static_cast<const std::int32_t*>(nullptr), dv.p, 0, preduce::sum).keys.empty());
}

namespace {
__global__ void fill_pairs(std::int32_t* keys, float* values, std::uint64_t n, std::uint64_t run) {
    for (std::uint64_t i = blockIdx.x * std::uint64_t{blockDim.x} + threadIdx.x; i < n;
         i += std::uint64_t{gridDim.x} * blockDim.x) {
        keys[i] = static_cast<std::int32_t>(i / run);
        values[i] = static_cast<float>(i % 4);
    }
}
} // namespace

TEST_CASE("reduce_by_key on the GPU: 2^31 + 5 device pairs", "[by_key][large]") {
    const std::uint64_t n = (std::uint64_t{1} << 31) + 5, run = 1000, m = (n + run - 1) / run;
    std::int32_t* keys = nullptr;
    float* values = nullptr;
    std::int32_t* keys_out = nullptr;
    float* values_out = nullptr;
    const bool room = cudaMalloc(reinterpret_cast<void**>(&keys), n * sizeof(std::int32_t)) == cudaSuccess &&
                      cudaMalloc(reinterpret_cast<void**>(&values), n * sizeof(float)) == cudaSuccess &&
                      cudaMalloc(reinterpret_cast<void**>(&keys_out), m * sizeof(std::int32_t)) == cudaSuccess &&
                      cudaMalloc(reinterpret_cast<void**>(&values_out), m * sizeof(float)) == cudaSuccess;
    if (!room) {
        cudaGetLastError();
        cudaFree(keys), cudaFree(values), cudaFree(keys_out), cudaFree(values_out);
        WARN("skipped: 17 GiB of device memory not available");
        return;
    }
    fill_pairs<<<4096, 256>>>(keys, values, n, run);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    // Every run's sum is an integer below 2^24, exact in any order.
    for (preduce::precision p : {preduce::precision::fast, preduce::precision::deterministic}) {
        REQUIRE(preduce::cuda::reduce_by_key(keys, values, n, preduce::sum, keys_out, values_out, {.precision = p}) == m);
        std::vector<std::int32_t> k(m);
        std::vector<float> v(m);
        REQUIRE(cudaMemcpy(k.data(), keys_out, m * sizeof(std::int32_t), cudaMemcpyDeviceToHost) == cudaSuccess);
        REQUIRE(cudaMemcpy(v.data(), values_out, m * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
        std::size_t bad = 0;
        for (std::uint64_t r = 0; r < m; ++r) {
            const std::uint64_t b = r * run, e = b + run < n ? b + run : n;
            std::uint64_t want = 0;  // 1500 for a whole run (b is a multiple of 4)
            if (e - b == run) want = run / 4 * 6;
            else
                for (std::uint64_t i = b; i < e; ++i) want += i % 4;
            if (k[r] != static_cast<std::int32_t>(r) || v[r] != static_cast<float>(want)) ++bad;
        }
        CHECK(bad == 0);
    }
    cudaFree(keys);
    cudaFree(values);
    cudaFree(keys_out);
    cudaFree(values_out);
}
