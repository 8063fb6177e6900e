// GPU rows, all in one process: preduce's CUDA backend next to CUB DeviceReduce,
// thrust::reduce and a read-only probe (the bandwidth ceiling), the transform and fused
// built-ins (sumsq, minmax, dot, mean) next to the plain sum, plus the seed's ladder
// kernel-only and end-to-end. Device rows use CUDA-event time of one call, launches
// included; run with --benchmark_repetitions=N to get medians.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cub/device/device_reduce.cuh>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <vector>

#include "gpu_inputs.cuh"
#include "preduce/cuda/ladder.cuh"
#include "preduce/cuda/reduce.cuh"
#include "preduce/custom.hpp"
#include "preduce/detail/type_name.hpp"
#include "preduce/fused.hpp"
#include "preduce/reducers.hpp"
#include "preduce/transforms.hpp"

namespace {

using preduce::bench_gpu::window;

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        std::fprintf(stderr, "bench_gpu: %s: %s\n", what, cudaGetErrorString(e));
        std::exit(1);
    }
}

// Times `enqueue(data)` with CUDA events, one call per iteration. `inputs` arrays of n
// elements are read per call (2 for a dot product): the bytes that GB/s counts.
template <class T>
void time_device(benchmark::State& state, std::size_t n, const std::function<void(const T*, cudaStream_t)>& enqueue,
                 std::size_t inputs = 1) {
    // The per-thread default stream: the stream the front end uses, for every row alike.
    cudaStream_t s = cudaStreamPerThread;
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "event");
    check(cudaEventCreate(&stop), "event");
    std::size_t it = 0;
    for (int w = 0; w < 3; ++w) enqueue(window<T>(n, it++), s);  // warm-up: pools, caches, clocks
    check(cudaStreamSynchronize(s), "warm-up");
    for (auto _ : state) {
        const T* p = window<T>(n, it++);
        check(cudaEventRecord(start, s), "record");
        enqueue(p, s);
        check(cudaEventRecord(stop, s), "record");
        check(cudaEventSynchronize(stop), "sync");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, start, stop), "elapsed");
        state.SetIterationTime(ms / 1e3);
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * sizeof(T) * inputs));
    state.counters["n"] = static_cast<double>(n);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
}

// Read-only probe: 16-byte loads of every byte, xor-folded so nothing is optimised away.
__global__ void read_probe(const uint4* __restrict__ p, std::size_t vectors, unsigned* sink) {
    uint4 acc{0, 0, 0, 0};
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < vectors; i += std::size_t{gridDim.x} * blockDim.x) {
        const uint4 v = p[i];
        acc.x ^= v.x; acc.y ^= v.y; acc.z ^= v.z; acc.w ^= v.w;
    }
    if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x9e3779b9u) *sink = 1;  // practically never taken
}

template <class T>
struct device_out {
    void* p = nullptr;
    device_out() { check(cudaMalloc(&p, 64), "cudaMalloc out"); }
    ~device_out() { cudaFree(p); }
    template <class U>
    U* as() const { return static_cast<U*>(p); }
};

// reduce/cuda: preduce's own workspace (what the front end does);
// reduce/cuda_ws: caller-held workspace, the way CUB is timed below.
template <class T, class R>
void register_ours(const std::string& op, std::size_t n, R reducer, bool caller_workspace = true) {
    const std::string tail = "/" + op + "/" + preduce::detail::type_name<T>() + "/" + std::to_string(n);
    benchmark::RegisterBenchmark(("reduce/cuda" + tail).c_str(), [=](benchmark::State& st) {
        device_out<T> out;
        time_device<T>(st, n, [&](const T* p, cudaStream_t s) {
            preduce::cuda::reduce_async(p, n, reducer, out.template as<typename R::result_type>(), s);
        });
    })->UseManualTime()->Unit(benchmark::kMicrosecond);
    if (!caller_workspace) return;
    benchmark::RegisterBenchmark(("reduce/cuda_ws" + tail).c_str(), [=](benchmark::State& st) {
        device_out<T> out;
        const std::size_t bytes = preduce::cuda::workspace_bytes<R>(n);
        void* ws = nullptr;
        check(cudaMalloc(&ws, bytes + 1), "workspace");
        time_device<T>(st, n, [&](const T* p, cudaStream_t s) {
            preduce::cuda::reduce_async(p, n, reducer, out.template as<typename R::result_type>(), ws, bytes, s);
        });
        cudaFree(ws);
    })->UseManualTime()->Unit(benchmark::kMicrosecond);
}

// Comparison rows for the report, not production paths: the mean through the generic
// per-element Chan merge (a transform hides moments_reducer from the backend's per-thread
// shortcut, thread_state.cuh), and a float sum declared non-commutative (the ordered layer).
struct same_value {
    __host__ __device__ float operator()(float x) const { return x; }
};
using generic_moments = preduce::transformed_reducer<float, same_value, preduce::moments_reducer<float>>;
struct ordered_sum {
    using value_type = float;
    __host__ __device__ static float identity() { return -0.0f; }
    __host__ __device__ static float combine(float a, float b) { return a + b; }
};

// x . y over two arrays read side by side (a zip source); GB/s counts both.
template <class T>
void register_dot(std::size_t n) {
    const std::string name = std::string("reduce/cuda/dot/") + preduce::detail::type_name<T>() + "/" + std::to_string(n);
    benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) {
        device_out<T> out;
        std::size_t it = 0;
        time_device<T>(
            st, n,
            [&](const T* x, cudaStream_t s) {
                const T* y = window<T>(n, it++, 1);
                preduce::cuda::reduce_async(preduce::zip_source<T, T>{x, y}, n, preduce::dot_reducer<T>{}, out.template as<T>(), s);
            },
            2);
    })->UseManualTime()->Unit(benchmark::kMicrosecond);
}

template <class T>
void register_cub(const std::string& op, std::size_t n) {
    const std::string name = "anchor/cub/" + op + "/" + preduce::detail::type_name<T>() + "/" + std::to_string(n);
    benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) {
        device_out<T> out;
        std::size_t temp_bytes = 0;
        const T* any = window<T>(n, 0);
        const auto call = [&](void* temp, const T* p, cudaStream_t s) {
            if (op == "sum") return cub::DeviceReduce::Sum(temp, temp_bytes, p, out.template as<T>(), static_cast<std::int64_t>(n), s);
            if (op == "max") return cub::DeviceReduce::Max(temp, temp_bytes, p, out.template as<T>(), static_cast<std::int64_t>(n), s);
            return cub::DeviceReduce::ArgMin(temp, temp_bytes, p, out.template as<T>(),
                                             reinterpret_cast<std::int64_t*>(out.template as<char>() + 16),
                                             static_cast<std::int64_t>(n), s);
        };
        check(call(nullptr, any, nullptr), "cub temp size");
        void* temp = nullptr;
        check(cudaMalloc(&temp, temp_bytes + 1), "cub temp");
        time_device<T>(st, n, [&](const T* p, cudaStream_t s) { check(call(temp, p, s), "cub"); });
        cudaFree(temp);
    })->UseManualTime()->Unit(benchmark::kMicrosecond);
}

void register_anchors_f32(std::size_t n) {
    const std::string sz = std::to_string(n);
    benchmark::RegisterBenchmark(("anchor/thrust/sum/float32/" + sz).c_str(), [=](benchmark::State& st) {
        time_device<float>(st, n, [&](const float* p, cudaStream_t s) {
            benchmark::DoNotOptimize(thrust::reduce(thrust::cuda::par.on(s), p, p + n, 0.0f));
        });
    })->UseManualTime()->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("anchor/read_probe/float32/" + sz).c_str(), [=](benchmark::State& st) {
        device_out<float> sink;
        int sms = 0;
        check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attr");
        time_device<float>(st, n, [&](const float* p, cudaStream_t s) {
            const std::size_t vectors = n / 4;
            const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((vectors + 255) / 256, std::size_t(sms) * 8));
            read_probe<<<blocks, 256, 0, s>>>(reinterpret_cast<const uint4*>(p), vectors, sink.as<unsigned>());
        });
    })->UseManualTime()->Unit(benchmark::kMicrosecond);
}

// The seed's figure at 2^24 floats: every rung kernel-only, then end-to-end from pageable
// host memory (host data in, scalar out, copies included), timed on the host clock.
void register_ladder() {
    constexpr std::size_t n = std::size_t{1} << 24;
    using preduce::cuda::ladder::sum_atomic_per_element;
    using preduce::cuda::ladder::sum_seed_tree;
    const auto rung = [](const char* name, auto enqueue) {
        benchmark::RegisterBenchmark((std::string("ladder/kernel/") + name + "/float32/16777216").c_str(),
                                     [=](benchmark::State& st) {
                                         device_out<float> out;
                                         time_device<float>(st, n, [&](const float* p, cudaStream_t s) {
                                             enqueue(p, out.as<float>(), s);
                                         });
                                     })
            ->UseManualTime()->Unit(benchmark::kMicrosecond);
    };
    rung("1_atomic_per_element", [](const float* p, float* out, cudaStream_t s) {
        check(cudaMemsetAsync(out, 0, sizeof(float), s), "memset");
        sum_atomic_per_element(p, n, out, s);
    });
    rung("2_seed_tree", [](const float* p, float* out, cudaStream_t s) {
        check(cudaMemsetAsync(out, 0, sizeof(float), s), "memset");
        sum_seed_tree(p, n, out, s);
    });
    rung("3_preduce", [](const float* p, float* out, cudaStream_t s) {
        preduce::cuda::reduce_async(p, n, preduce::sum_reducer<float>{}, out, s);
    });

    static std::vector<float> host = [] {
        std::vector<float> v(n);
        std::mt19937 rng(42);
        std::uniform_real_distribution<float> u(-1.0f, 1.0f);
        for (auto& x : v) x = u(rng);
        return v;
    }();
    const auto e2e = [](const char* name, std::function<float()> run) {
        benchmark::RegisterBenchmark((std::string("ladder/end_to_end/") + name + "/float32/16777216").c_str(),
                                     [=](benchmark::State& st) {
                                         run();
                                         for (auto _ : st) {
                                             const auto t0 = std::chrono::steady_clock::now();
                                             benchmark::DoNotOptimize(run());
                                             st.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
                                         }
                                         st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * n * sizeof(float)));
                                     })
            ->UseManualTime()->Unit(benchmark::kMillisecond);
    };
    e2e("0_cpu_seq", [] { return std::accumulate(host.begin(), host.end(), 0.0f); });
    const auto copy_then = [](auto kernel) {
        return [kernel] {
            static float* d = nullptr;
            static float* out = nullptr;
            if (d == nullptr) {
                check(cudaMalloc(&d, n * sizeof(float)), "malloc");
                check(cudaMalloc(&out, sizeof(float)), "malloc");
            }
            check(cudaMemcpy(d, host.data(), n * sizeof(float), cudaMemcpyHostToDevice), "copy in (pageable)");
            check(cudaMemset(out, 0, sizeof(float)), "memset");
            kernel(d, n, out, cudaStream_t{0});
            float r = 0;
            check(cudaMemcpy(&r, out, sizeof(float), cudaMemcpyDeviceToHost), "copy out");
            return r;
        };
    };
    e2e("1_copy_then_atomic", copy_then(sum_atomic_per_element));
    e2e("2_copy_then_seed_tree", copy_then(sum_seed_tree));
    e2e("3_preduce_staged", [] { return preduce::cuda::reduce(host.data(), n, preduce::sum_reducer<float>{}); });
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::size_t> sizes;
    for (int e = 10; e <= 30; e += 2) sizes.push_back(std::size_t{1} << e);
    for (std::size_t n : sizes) {
        register_ours<float>("sum", n, preduce::sum_reducer<float>{});
        register_cub<float>("sum", n);
        register_anchors_f32(n);
    }
    for (std::size_t n : sizes) {
        register_ours<float>("max", n, preduce::max_reducer<float>{});
        register_cub<float>("max", n);
        register_ours<float>("argmin", n, preduce::argmin_reducer<float>{});
        register_cub<float>("argmin", n);
    }
    // The transform and fused built-ins next to the plain sum (summary.py: ratio to it).
    for (std::size_t n : sizes) {
        if (n < (std::size_t{1} << 16)) continue;
        register_ours<float>("sumsq", n, preduce::sumsq_reducer<float>{}, false);
        register_ours<float>("minmax", n, preduce::minmax_reducer<float>{}, false);
        register_dot<float>(n);
        register_ours<float>("mean", n, preduce::moments_reducer<float>{}, false);
        if (n == (std::size_t{1} << 24) || n == (std::size_t{1} << 28)) {
            register_ours<float>("mean_generic", n, generic_moments{}, false);
            register_ours<float>("sum_ordered", n, preduce::as_reducer(ordered_sum{}), false);
        }
    }
    for (std::size_t n : sizes) {
        register_ours<double>("sum", n, preduce::sum_reducer<double>{});
        register_cub<double>("sum", n);
        register_ours<std::int32_t>("sum", n, preduce::sum_reducer<std::int32_t>{});
        register_cub<std::int32_t>("sum", n);
    }
    register_ladder();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    preduce::bench_gpu::release_pools();
    return 0;
}
