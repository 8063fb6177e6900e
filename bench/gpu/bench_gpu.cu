// GPU rows, all in one process: preduce's CUDA backend next to CUB DeviceReduce,
// thrust::reduce and a read-only probe (the bandwidth ceiling) for sum, max, argmin and
// sumsq of float32, float64 and int32 at n = 2^10, 2^12, ..., 2^28 (2^30 for float32 sum
// and max), sum and max of the narrow types (16-bit floats, 8- and 16-bit integers) from
// 2^24 to 1 GiB next to CUB's wide-accumulator sum and the probe, the transform and fused built-ins (minmax, dot, mean) next to the plain sum,
// the deterministic and compensated sums (precision::deterministic, compensated), plus
// the seed's ladder kernel-only and end-to-end, and one reduction over two GPUs
// (multigpu/..., host clock). Device rows use CUDA-event time of one call, launches
// included; run with --benchmark_repetitions=N to get medians. The latency rows
// (latency_bench.cu) time what the caller waits for, on the host clock.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <functional>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <vector>

#include "gpu_inputs.cuh"
#include "ladder.cuh"
#include "latency_bench.cuh"
#include "segments_bench.cuh"
#include "preduce/cuda/reduce.cuh"
#include "preduce/precision.hpp"
#include "preduce/custom.hpp"
#include "preduce/detail/core/numeric.hpp"
#include "preduce/detail/core/type_name.hpp"
#include "preduce/fused.hpp"
#include "preduce/half.hpp"
#include "preduce/ops.hpp"
#include "preduce/reducers.hpp"
#include "preduce/transforms.hpp"

namespace {

using preduce::bench_gpu::check;
using preduce::bench_gpu::window;


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

// The fixed-order sums (precision::deterministic and compensated) through the same
// enqueue the front end reaches for device data, next to reduce/cuda/sum.
template <class T, preduce::precision P>
void register_fixed(std::size_t n) {
    const char* op = P == preduce::precision::compensated ? "sum_comp" : "sum_det";
    const std::string name =
        std::string("reduce/cuda/") + op + "/" + preduce::detail::type_name<T>() + "/" + std::to_string(n);
    benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) {
        device_out<T> out;
        time_device<T>(st, n, [&](const T* p, cudaStream_t s) {
            preduce::cuda::detail::fixed::enqueue_reduce<P>(preduce::sum_reducer<T>{}, p, n, out.template as<T>(), s);
        });
    })->UseManualTime()->Unit(benchmark::kMicrosecond);
}

enum class op_kind { sum, max, argmin, sumsq };

const char* op_name(op_kind op) {
    switch (op) {
    case op_kind::sum: return "sum";
    case op_kind::max: return "max";
    case op_kind::argmin: return "argmin";
    case op_kind::sumsq: return "sumsq";
    }
    return "?";
}

// x * x for CUB's TransformReduce; integers square and add in their unsigned twin, as
// preduce's sumsq does (wrap-around, never UB: 2^28 squares of up to 1000^2 overflow int32).
template <class T>
struct square {
    using result_type = preduce::detail::wrap_t<T>;  // the unsigned twin of an integer, else T
    __host__ __device__ result_type operator()(T x) const {
        const result_type a = static_cast<result_type>(x);
        return a * a;
    }
};

// Times a CUB call with caller-held temporary storage, as CUB's users run it: call(nullptr,
// p, nullptr) sets temp_bytes (call holds it by reference), then call(temp, p, stream) once
// per iteration.
template <class T, class Call>
void time_cub(benchmark::State& st, std::size_t n, const std::size_t& temp_bytes, const Call& call) {
    check(call(nullptr, window<T>(n, 0), nullptr), "cub temp size");
    void* temp = nullptr;
    check(cudaMalloc(&temp, temp_bytes + 1), "cub temp");
    time_device<T>(st, n, [&](const T* p, cudaStream_t s) { check(call(temp, p, s), "cub"); });
    cudaFree(temp);
}

// CUB DeviceReduce with caller-held temporary storage: Sum, Max, ArgMin (value, int64
// index) and, for sumsq, TransformReduce(plus, square, 0).
template <class T>
void register_cub(op_kind op, std::size_t n) {
    const std::string name =
        std::string("anchor/cub/") + op_name(op) + "/" + preduce::detail::type_name<T>() + "/" + std::to_string(n);
    benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) {
        device_out<T> out;
        std::size_t temp_bytes = 0;
        const auto call = [&](void* temp, const T* p, cudaStream_t s) -> cudaError_t {
            const auto items = static_cast<std::int64_t>(n);
            switch (op) {
            case op_kind::sum: return cub::DeviceReduce::Sum(temp, temp_bytes, p, out.template as<T>(), items, s);
            case op_kind::max: return cub::DeviceReduce::Max(temp, temp_bytes, p, out.template as<T>(), items, s);
            case op_kind::argmin:
                return cub::DeviceReduce::ArgMin(temp, temp_bytes, p, out.template as<T>(),
                                                 reinterpret_cast<std::int64_t*>(out.template as<char>() + 16), items, s);
            case op_kind::sumsq: {
                using A = typename square<T>::result_type;
                return cub::DeviceReduce::TransformReduce(temp, temp_bytes, p, out.template as<A>(), items,
                                                          cuda::std::plus<>{}, square<T>{}, A(0), s);
            }
            }
            return cudaErrorInvalidValue;
        };
        time_cub<T>(st, n, temp_bytes, call);
    })->UseManualTime()->Unit(benchmark::kMicrosecond);
}

// The read probe over the n * sizeof(T) bytes of a T row.
template <class T>
void register_probe(std::size_t n) {
    const std::string tail = std::string("/") + preduce::detail::type_name<T>() + "/" + std::to_string(n);
    benchmark::RegisterBenchmark(("anchor/read_probe" + tail).c_str(), [=](benchmark::State& st) {
        device_out<T> sink;
        int sms = 0;
        check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attr");
        time_device<T>(st, n, [&](const T* p, cudaStream_t s) {
            const std::size_t vectors = n * sizeof(T) / sizeof(uint4);
            const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((vectors + 255) / 256, std::size_t(sms) * 8));
            read_probe<<<blocks, 256, 0, s>>>(reinterpret_cast<const uint4*>(p), vectors, sink.template as<unsigned>());
        });
    })->UseManualTime()->Unit(benchmark::kMicrosecond);
}

// thrust::reduce (sum) and the read probe over the n * sizeof(T) bytes of a T row.
template <class T>
void register_anchors(std::size_t n) {
    const std::string tail = std::string("/") + preduce::detail::type_name<T>() + "/" + std::to_string(n);
    benchmark::RegisterBenchmark(("anchor/thrust/sum" + tail).c_str(), [=](benchmark::State& st) {
        time_device<T>(st, n, [&](const T* p, cudaStream_t s) {
            benchmark::DoNotOptimize(thrust::reduce(thrust::cuda::par.on(s), p, p + n, T(0)));
        });
    })->UseManualTime()->Unit(benchmark::kMicrosecond);
    register_probe<T>(n);
}

// CUB over the narrow types as its users write it: CUDA's own 16-bit floats (__half,
// __nv_bfloat16, the same bits as preduce::float16 and bfloat16) summed with a float
// accumulator (cuda::std::plus<float>, initial value 0.0f), the 8- and 16-bit integers with
// a 64-bit one, the accumulator preduce sums them in.
template <class T>
struct cub_element {
    using type = T;
};
template <>
struct cub_element<preduce::float16> {
    using type = __half;
};
template <>
struct cub_element<preduce::bfloat16> {
    using type = __nv_bfloat16;
};

template <class T>
void register_cub_narrow_sum(std::size_t n) {
    using U = typename cub_element<T>::type;
    using A = preduce::detail::compute_t<T>;
    static_assert(sizeof(U) == sizeof(T) && alignof(U) == alignof(T));
    const std::string name = std::string("anchor/cub/sum/") + preduce::detail::type_name<T>() + "/" + std::to_string(n);
    benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) {
        device_out<T> out;
        std::size_t temp_bytes = 0;
        const auto call = [&](void* temp, const T* p, cudaStream_t s) {
            return cub::DeviceReduce::Reduce(temp, temp_bytes, reinterpret_cast<const U*>(p), out.template as<A>(),
                                             static_cast<std::int64_t>(n), cuda::std::plus<A>{}, A(0), s);
        };
        time_cub<T>(st, n, temp_bytes, call);
    })->UseManualTime()->Unit(benchmark::kMicrosecond);
}

// A narrow type at size n: our sum (accumulated wide: float32 for the 16-bit floats, 64 bits
// for the integers) and max next to CUB's sum and the read probe of the same bytes.
template <class T>
void register_narrow(std::size_t n) {
    register_ours<T>("sum", n, preduce::sum_reducer<T>{}, false);
    register_ours<T>("max", n, preduce::max_reducer<T>{}, false);
    register_cub_narrow_sum<T>(n);
    register_probe<T>(n);
}

// One (type, n) of the op grid: ours (reduce/cuda, and reduce/cuda_ws where
// `caller_workspace`: sum of every type, max and argmin of float32) next to CUB.
template <class T>
void register_op(op_kind op, std::size_t n, bool caller_workspace) {
    switch (op) {
    case op_kind::sum: register_ours<T>("sum", n, preduce::sum_reducer<T>{}, caller_workspace); break;
    case op_kind::max: register_ours<T>("max", n, preduce::max_reducer<T>{}, caller_workspace); break;
    case op_kind::argmin: register_ours<T>("argmin", n, preduce::argmin_reducer<T>{}, caller_workspace); break;
    case op_kind::sumsq: register_ours<T>("sumsq", n, preduce::sumsq_reducer<T>{}, caller_workspace); break;
    }
    register_cub<T>(op, n);
}

// The seed's figure at 2^24 floats: every rung kernel-only, then end-to-end from pageable
// host memory (host data in, scalar out, copies included), timed on the host clock.
void register_ladder() {
    constexpr std::size_t n = std::size_t{1} << 24;
    using ladder::sum_atomic_per_element;
    using ladder::sum_seed_tree;
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

// ---- several GPUs in one process (options::gpus, preduce::cuda::reduce_parts) -------------
// f32 sum of 2^30 elements on one GPU next to 2 x 2^30 on two GPUs (each reduces its own
// 2^30 at the same time): the target is two GPUs in at most 1.1x one GPU's time. Timed on
// the host clock around the whole call, which returns the result on the host (hand-off to
// each GPU's thread, both reductions, the copies back and the combine included); two
// warm-up calls first (CUDA contexts, worker threads, pools); medians come from
// --benchmark_repetitions. Each GPU's input is one fixed 4 GiB array, ~70x the 60 MB L2 of an
// H200, so every call reads it from HBM and no rotation is needed.
//   multigpu/single/...      preduce::cuda::reduce on GPU 0 (the plain one-GPU call)
//   multigpu/parts/.../1xN   reduce_parts with one part of N on GPU 0
//   multigpu/parts/.../2xN   reduce_parts with N on GPU 0 and N on GPU 1
//   multigpu/host/.../gpus:k pageable host data, options::gpus = k (one 4 GiB host array)
namespace mgpu {

constexpr std::size_t n = std::size_t{1} << 30;

__global__ void fill_uniform(float* p, std::size_t count, std::uint64_t seed) {
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < count; i += std::size_t{gridDim.x} * blockDim.x) {
        std::uint64_t x = (seed + i) * 0x9e3779b97f4a7c15ull;
        x ^= x >> 31;
        x *= 0xbf58476d1ce4e5b9ull;
        x ^= x >> 29;
        p[i] = static_cast<float>((x >> 11) * 0x1.0p-53 * 2.0 - 1.0);
    }
}

float* arrays[8] = {};

// One 2^30-float array per GPU (up to 8), filled at first use, freed by release().
float* on_device(int device) {
    if (arrays[device] == nullptr) {
        int previous = 0;
        check(cudaGetDevice(&previous), "cudaGetDevice");
        check(cudaSetDevice(device), "cudaSetDevice");
        check(cudaMalloc(&arrays[device], n * sizeof(float)), "cudaMalloc (multigpu input)");
        fill_uniform<<<1024, 256>>>(arrays[device], n, 0x5eedull + static_cast<std::uint64_t>(device));
        check(cudaDeviceSynchronize(), "fill");
        check(cudaSetDevice(previous), "cudaSetDevice");
    }
    return arrays[device];
}

void release() {
    for (float*& p : arrays) {
        if (p != nullptr) cudaFree(p);
        p = nullptr;
    }
}

} // namespace mgpu

// Host wall clock around one synchronous call per iteration, after two warm-up calls (once
// per row, not per repetition: the host rows take ~0.1 s a call).
void time_call(benchmark::State& st, std::size_t bytes, const std::function<float()>& call, bool& warm) {
    for (int w = 0; w < 2 && !warm; ++w) benchmark::DoNotOptimize(call());
    warm = true;
    for (auto _ : st) {
        const auto t0 = std::chrono::steady_clock::now();
        benchmark::DoNotOptimize(call());
        st.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations() * bytes));
}

void register_multigpu() {
    int visible = 0;
    if (cudaGetDeviceCount(&visible) != cudaSuccess) visible = 0;
    using part = preduce::cuda::device_part<float>;
    const std::size_t n = mgpu::n;
    const std::string N = std::to_string(n);
    const auto row = [](const std::string& name, std::size_t bytes, std::function<float()> call) {
        auto warm = std::make_shared<bool>(false);
        benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) { time_call(st, bytes, call, *warm); })
            ->UseManualTime()->Unit(benchmark::kMillisecond);
    };
    for (auto p : {preduce::precision::fast, preduce::precision::deterministic}) {
        const std::string op = p == preduce::precision::fast ? "sum" : "sum_det";
        const preduce::options o{.precision = p};
        row("multigpu/single/" + op + "/float32/" + N, n * sizeof(float),
            [=] { return preduce::cuda::reduce(mgpu::on_device(0), n, preduce::sum, o); });
        row("multigpu/parts/" + op + "/float32/1x" + N, n * sizeof(float), [=] {
            const std::vector<part> parts{{0, mgpu::on_device(0), n}};
            return preduce::cuda::reduce_parts(parts, preduce::sum, o);
        });
        if (visible >= 2)
            row("multigpu/parts/" + op + "/float32/2x" + N, 2 * n * sizeof(float), [=] {
                const std::vector<part> parts{{0, mgpu::on_device(0), n}, {1, mgpu::on_device(1), n}};
                return preduce::cuda::reduce_parts(parts, preduce::sum, o);
            });
    }
    // Pageable host data: the same 2^30 floats through one GPU's staging pipeline, then split
    // over two (each GPU's thread stages its half).
    static std::vector<float> host;
    const auto host_data = [] {
        if (host.empty()) {
            host.resize(mgpu::n);
            preduce::bench_gpu::fill_host(host.data(), host.size(), 0x2545f4914f6cdd1dull);
        }
        return host.data();
    };
    for (int g = 1; g <= std::min(visible, 2); ++g)
        row("multigpu/host/sum/float32/" + N + "/gpus:" + std::to_string(g), n * sizeof(float),
            [=] { return preduce::cuda::reduce(host_data(), n, preduce::sum, {.gpus = g}); });
    if (visible < 2) std::fprintf(stderr, "bench_gpu: 1 GPU visible, the 2-GPU multigpu rows are not registered\n");
}

} // namespace

int main(int argc, char** argv) {
    const auto pow2 = [](int lo, int hi) {
        std::vector<std::size_t> v;
        for (int e = lo; e <= hi; e += 2) v.push_back(std::size_t{1} << e);
        return v;
    };
    const std::vector<std::size_t> grid = pow2(10, 28);   // every op x type
    const std::vector<std::size_t> wide = pow2(10, 30);   // float32 sum and max
    // float32: sum and max to 2^30, argmin and sumsq to 2^28.
    for (std::size_t n : wide) {
        register_op<float>(op_kind::sum, n, true);
        register_anchors<float>(n);
    }
    for (std::size_t n : wide) register_op<float>(op_kind::max, n, true);
    for (std::size_t n : grid) register_op<float>(op_kind::argmin, n, true);
    for (std::size_t n : grid) register_op<float>(op_kind::sumsq, n, false);
    // The transform and fused built-ins next to the plain sum (summary.py: ratio to it).
    for (std::size_t n : pow2(16, 30)) {
        if (n > grid.back()) register_ours<float>("sumsq", n, preduce::sumsq_reducer<float>{}, false);
        register_ours<float>("minmax", n, preduce::minmax_reducer<float>{}, false);
        register_dot<float>(n);
        register_ours<float>("mean", n, preduce::moments_reducer<float>{}, false);
        if (n == (std::size_t{1} << 24) || n == (std::size_t{1} << 28)) {
            register_ours<float>("mean_generic", n, generic_moments{}, false);
            register_ours<float>("sum_ordered", n, preduce::as_reducer(ordered_sum{}), false);
        }
    }
    // Deterministic and compensated sums (summary.py: ratio to the fast sum).
    for (int e : {24, 26, 28}) {
        register_fixed<float, preduce::precision::deterministic>(std::size_t{1} << e);
        register_fixed<float, preduce::precision::compensated>(std::size_t{1} << e);
    }
    register_fixed<double, preduce::precision::deterministic>(std::size_t{1} << 28);
    register_fixed<double, preduce::precision::compensated>(std::size_t{1} << 28);
    // float64 and int32: every op to 2^28; caller-held workspace rows for the sum only.
    const auto other_type = [&](auto zero) {
        using T = decltype(zero);
        for (std::size_t n : grid) {
            register_op<T>(op_kind::sum, n, true);
            register_anchors<T>(n);
        }
        for (op_kind op : {op_kind::max, op_kind::argmin, op_kind::sumsq})
            for (std::size_t n : grid) register_op<T>(op, n, false);
    };
    other_type(double{});
    other_type(std::int32_t{});
    // The narrow types: 16-bit ones to 2^29 elements, 8-bit ones to 2^30 (1 GiB each).
    for (int e : {24, 26, 28, 29}) {
        register_narrow<preduce::bfloat16>(std::size_t{1} << e);
        register_narrow<preduce::float16>(std::size_t{1} << e);
        register_narrow<std::int16_t>(std::size_t{1} << e);
        register_narrow<std::uint16_t>(std::size_t{1} << e);
    }
    for (int e : {24, 26, 28, 30}) {
        register_narrow<std::uint8_t>(std::size_t{1} << e);
        register_narrow<std::int8_t>(std::size_t{1} << e);
    }
    register_ladder();
    register_multigpu();
    register_segments();
    preduce::bench_gpu::register_latency();
    preduce::bench_gpu::register_precision();
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    preduce::bench_gpu::release_latency_inputs();
    preduce::bench_gpu::release_pools();
    mgpu::release();
    return 0;
}
