// Many results per call on the GPU, next to CUB's DeviceSegmentedReduce and the read probe,
// all on one 2^28-float array in device memory (1 GiB, ~17x the H200's L2):
//   segments/<who>/<op>/float32/268435456/seg:<k>     fixed segments of k elements given
//                                                      by a device offsets array (CUB's API)
//   segments/<who>/<op>/float32/268435456/var          log-uniform sizes 1 .. 2^20, same offsets
//   batches/preduce/sum/float32/268435456/seg:<k>     the same segments without offsets
//   columns/<who>/sum/float32/16384x16384              axis 0 of a row-major matrix
//   segments/probe/float32/268435456                   a read of the same bytes: the ceiling
//   segments/kokkos/<op>/...                           with a CUDA-enabled Kokkos: the kokkos
//                                                      backend on the same segments (sum in
//                                                      the three orders, argmin)
//   by_key/<who>/sum/<K>-<V>/<pairs>/run:<r>           runs of equal keys of mean length r
//                                                      beside values, 1 GiB of pairs (int32
//                                                      and float32, int64 and float64), into
//                                                      device outputs (preduce::cuda::
//                                                      reduce_by_key, thrust::reduce_by_key)
// Timed on the host clock around each call (what the caller waits for), the stream
// synchronised before and after; outputs in device memory. GB/s counts the data bytes.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cub/device/device_segmented_reduce.cuh>
#include <functional>
#include <memory>
#include <random>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <string>
#include <vector>

#include "preduce/cuda/by_key.cuh"
#include "preduce/cuda/reduce.cuh"
#include "preduce/detail/algorithm/segment_layout.hpp"
#include "preduce/ops.hpp"
#include "preduce/segmented.hpp"
#include "gpu_inputs.cuh"
#include "segments_bench.cuh"

namespace {

using preduce::bench_gpu::check;

constexpr std::size_t n = std::size_t{1} << 28;

__global__ void fill(float* p, std::size_t count) {
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count; i += std::size_t{gridDim.x} * blockDim.x) {
        std::uint64_t x = (i + 0x5eed) * 0x9e3779b97f4a7c15ull;
        x ^= x >> 31;
        x *= 0xbf58476d1ce4e5b9ull;
        x ^= x >> 29;
        p[i] = static_cast<float>((x >> 11) * 0x1.0p-53 * 2.0 - 1.0) + 0.001f;
    }
}

__global__ void probe(const uint4* __restrict__ p, std::size_t vectors, unsigned* sink) {
    uint4 acc{0, 0, 0, 0};
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < vectors; i += std::size_t{gridDim.x} * blockDim.x) {
        const uint4 v = p[i];
        acc.x ^= v.x; acc.y ^= v.y; acc.z ^= v.z; acc.w ^= v.w;
    }
    if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x9e3779b9u) *sink = 1;
}

struct device_array {
    void* p = nullptr;
    explicit device_array(std::size_t bytes) { check(cudaMalloc(&p, bytes), "cudaMalloc"); }
    ~device_array() { cudaFree(p); }
    template <class T>
    T* as() const { return static_cast<T*>(p); }
};

float* data() {
    static device_array a(n * sizeof(float));
    static bool filled = false;
    if (!filled) {
        fill<<<4096, 256>>>(a.as<float>(), n);
        check(cudaDeviceSynchronize(), "fill");
        filled = true;
    }
    return a.as<float>();
}

// Device offsets of fixed segments of k, or (k == 0) log-uniform sizes 1 .. 2^20.
const std::uint64_t* offsets(std::size_t k, std::size_t& m) {
    static std::vector<std::unique_ptr<device_array>> keep;
    std::vector<std::uint64_t> o{0};
    if (k != 0) {
        for (std::size_t s = k; s <= n; s += k) o.push_back(s);
    } else {
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> u(0.0, std::log(double(1 << 20)));
        while (o.back() < n) o.push_back(std::min<std::uint64_t>(n, o.back() + static_cast<std::uint64_t>(std::exp(u(rng)))));
    }
    m = o.size() - 1;
    keep.push_back(std::make_unique<device_array>(o.size() * sizeof(std::uint64_t)));
    check(cudaMemcpy(keep.back()->p, o.data(), o.size() * sizeof(std::uint64_t), cudaMemcpyHostToDevice), "offsets");
    return keep.back()->as<std::uint64_t>();
}

void time_calls(benchmark::State& st, std::size_t bytes, const std::function<void()>& call) {
    call();  // warm-up: pools, workspaces
    check(cudaDeviceSynchronize(), "warm-up");
    for (auto _ : st) {
        const auto t0 = std::chrono::steady_clock::now();
        call();
        check(cudaStreamSynchronize(cudaStreamPerThread), "sync");
        st.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * bytes));
}

void row(const std::string& name, std::size_t bytes, std::function<void()> call) {
    benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) { time_calls(st, bytes, call); })
        ->UseManualTime()
        ->Unit(benchmark::kMicrosecond);
}

template <class Out>
Out* outputs(std::size_t m) {
    static std::vector<std::unique_ptr<device_array>> keep;
    keep.push_back(std::make_unique<device_array>((m == 0 ? 1 : m) * sizeof(Out)));
    return keep.back()->as<Out>();
}

// CUB's temporary storage, sized once per row.
void* cub_temp(std::size_t bytes) {
    static std::vector<std::unique_ptr<device_array>> keep;
    keep.push_back(std::make_unique<device_array>(bytes == 0 ? 1 : bytes));
    return keep.back()->p;
}

void register_segment_rows(const std::string& label, std::size_t k) {
    std::size_t m = 0;
    const std::uint64_t* off = offsets(k, m);
    const std::string tail = "/float32/" + std::to_string(n) + "/" + label;
    cudaStream_t s = cudaStreamPerThread;
    float* out = outputs<float>(m);
    row("segments/preduce/sum" + tail, n * sizeof(float), [=] {
        preduce::cuda::reduce_segments(data(), n, off, m, preduce::sum, out, {.stream = s});
    });
    // The fixed orders, to be read against the fast sum above (same process, same data).
    row("segments/preduce/sum_deterministic" + tail, n * sizeof(float), [=] {
        preduce::cuda::reduce_segments(data(), n, off, m, preduce::sum, out,
                                       {.stream = s, .precision = preduce::precision::deterministic});
    });
    row("segments/preduce/sum_compensated" + tail, n * sizeof(float), [=] {
        preduce::cuda::reduce_segments(data(), n, off, m, preduce::sum, out,
                                       {.stream = s, .precision = preduce::precision::compensated});
    });
    std::size_t temp = 0;
    cub::DeviceSegmentedReduce::Sum(nullptr, temp, data(), out, static_cast<std::int64_t>(m), off, off + 1, s);
    void* t = cub_temp(temp);
    row("segments/cub/sum" + tail, n * sizeof(float), [=] {
        std::size_t bytes = temp;
        check(cub::DeviceSegmentedReduce::Sum(t, bytes, data(), out, static_cast<std::int64_t>(m), off, off + 1, s), "cub Sum");
    });
#if PREDUCE_BENCH_KOKKOS_CUDA
    // The kokkos backend on a CUDA-enabled Kokkos, same data and offsets: its fixed orders to
    // be read against its own fast sum.
    for (const auto p : {preduce::precision::fast, preduce::precision::deterministic, preduce::precision::compensated}) {
        const std::string op = p == preduce::precision::fast ? "sum" : std::string("sum_") + preduce::name(p);
        row("segments/kokkos/" + op + tail, n * sizeof(float), [=] {
            preduce::reduce_segments(preduce::backend::kokkos, data(), n, off, m, preduce::sum, out, {.precision = p});
        });
    }
#endif
    if (k == 1 || k == 4) return;  // argmin rows from 2^5 up
    auto* am = outputs<preduce::arg_result<float>>(m);
    row("segments/preduce/argmin" + tail, n * sizeof(float), [=] {
        preduce::cuda::reduce_segments(data(), n, off, m, preduce::argmin, am, {.stream = s});
    });
    using kv = cub::KeyValuePair<int, float>;
    auto* cam = outputs<kv>(m);
    std::size_t temp2 = 0;
    cub::DeviceSegmentedReduce::ArgMin(nullptr, temp2, data(), cam, static_cast<std::int64_t>(m), off, off + 1, s);
    void* t2 = cub_temp(temp2);
#if PREDUCE_BENCH_KOKKOS_CUDA
    row("segments/kokkos/argmin" + tail, n * sizeof(float), [=] {
        preduce::reduce_segments(preduce::backend::kokkos, data(), n, off, m, preduce::argmin, am);
    });
#endif
    row("segments/cub/argmin" + tail, n * sizeof(float), [=] {
        std::size_t bytes = temp2;
        check(cub::DeviceSegmentedReduce::ArgMin(t2, bytes, data(), cam, static_cast<std::int64_t>(m), off, off + 1, s),
           "cub ArgMin");
    });
}

// `pairs` keys of type K with runs of mean length `run` (1: every key differs from its
// neighbours).
template <class K>
const K* run_keys(std::size_t pairs, std::size_t run) {
    static std::vector<std::unique_ptr<device_array>> keep;
    std::vector<K> k(pairs);
    std::mt19937_64 rng(11);
    std::size_t i = 0;
    K key = 0;
    while (i < pairs) {
        const std::size_t len = run == 1 ? 1 : 1 + rng() % (2 * run - 1);
        for (std::size_t j = 0; j < len && i < pairs; ++j) k[i++] = key;
        ++key;
    }
    keep.push_back(std::make_unique<device_array>(pairs * sizeof(K)));
    check(cudaMemcpy(keep.back()->p, k.data(), pairs * sizeof(K), cudaMemcpyHostToDevice), "keys");
    return keep.back()->as<K>();
}

// Runs of equal keys beside values, into device outputs, preduce and Thrust: 1 GiB of pairs
// (2^27 int32/float, 2^26 int64/double; the values are the first bytes of data()).
template <class K, class V>
void register_by_key_rows(const std::string& types) {
    const std::size_t pairs = (std::size_t{1} << 30) / (sizeof(K) + sizeof(V));
    cudaStream_t s = cudaStreamPerThread;
    const V* values = reinterpret_cast<const V*>(data());
    for (std::size_t run : {std::size_t{1}, std::size_t{16}, std::size_t{1024}}) {
        const K* keys = run_keys<K>(pairs, run);
        auto* keys_out = outputs<K>(pairs);
        V* values_out = outputs<V>(pairs);
        const std::string tail = "/sum/" + types + "/" + std::to_string(pairs) + "/run:" + std::to_string(run);
        row("by_key/preduce" + tail, pairs * (sizeof(K) + sizeof(V)), [=] {
            preduce::cuda::reduce_by_key(keys, values, pairs, preduce::sum, keys_out, values_out, {.stream = s});
        });
        row("by_key/thrust" + tail, pairs * (sizeof(K) + sizeof(V)), [=] {
            thrust::reduce_by_key(thrust::cuda::par.on(s), keys, keys + pairs, values, keys_out, values_out);
        });
    }
}

} // namespace

void register_segments() {
    for (int e : {0, 2, 5, 9, 12, 16, 20, 24}) register_segment_rows("seg:" + std::to_string(std::size_t{1} << e), std::size_t{1} << e);
    register_segment_rows("var", 0);
    cudaStream_t s = cudaStreamPerThread;
    for (int e : {0, 5, 12, 20}) {
        const std::size_t k = std::size_t{1} << e;
        float* out = outputs<float>(n / k);
        row("batches/preduce/sum/float32/" + std::to_string(n) + "/seg:" + std::to_string(k), n * sizeof(float),
            [=] { preduce::cuda::reduce_batches(data(), n, k, preduce::sum, out, {.stream = s}); });
    }
    // Column sums: axis 0 of a 2^14 x 2^14 matrix (the first 2^28 floats, row-major).
    constexpr std::size_t side = std::size_t{1} << 14;
    float* cols = outputs<float>(side);
    ::preduce::detail::segment_layout L;
    L.form = ::preduce::detail::segment_form::strided;
    L.count = side;
    L.size = side;
    L.inner = side;
    row("columns/preduce/sum/float32/16384x16384", n * sizeof(float), [=] {
        preduce::cuda::reduce_segments_with(data(), n, L, preduce::sum_reducer<float>{}, cols, {.stream = s});
    });
    register_by_key_rows<std::int32_t, float>("int32-float32");
    register_by_key_rows<std::int64_t, double>("int64-float64");
    auto* sink = outputs<unsigned>(1);
    row("segments/probe/float32/" + std::to_string(n), n * sizeof(float), [=] {
        probe<<<132 * 8, 256, 0, s>>>(reinterpret_cast<const uint4*>(data()), n / 4, sink);
    });
}
