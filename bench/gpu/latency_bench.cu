// Latency: what a caller waits for. Every row times whole calls on the host clock
// (steady_clock around the call, which returns the value or, for the stream rows, is
// followed by a stream synchronize), one sample per iteration after warm-up calls (a sample
// is one call, or several back to back for host calls under a microsecond: median_timer.hpp),
// and reports the median sample as the counter median_us. The anchor is CUB DeviceReduce with
// temporary storage allocated once beforehand, followed by a cudaMemcpy of the result into
// a host variable: what a CUB user writes for a value on the host.
//   latency/preduce/<op>/<type>/<n>/<where>    preduce::reduce(backend::cuda, ...) (front end)
//   latency/cub/<op>/<type>/<n>/<where>        CUB + cudaMemcpy of the result
//   latency/preduce_stream/<op>/float32/<n>/device   reduce_async on a stream + synchronize
//   latency/cub_stream/<op>/float32/<n>/device       CUB on the same kind of stream + synchronize
//   latency/floor/...                          an empty kernel + synchronize; a 4-byte copy back
//   latency_pair/<op>/float32/<n>/device       preduce and CUB + copy interleaved in one row, n <= 2^20
//                                              (counters preduce_us, cub_us; register_interleaved_pair)
//   automatic/<op>/float32/<n>/pageable|device   every backend and auto, interleaved
//                                              (counters <backend>_us; register_automatic_grid)
//   precision/<op>/<type>/<n>                  fast, deterministic and compensated, interleaved
//                                              (counters <precision>_us; register_precision)
//   forms/<precision>/sum/<type>/<n>           the fixed order's block-pass forms, interleaved
//                                              (counters <form>_us; register_forms_grid)
//   kokkos/<op>/float32/<n>/device             with a CUDA-enabled Kokkos: cuda, kokkos, Kokkos'
//                                              own parallel_reduce and CUB, interleaved
//                                              (counters <candidate>_us; register_kokkos)
// <where>: device (cudaMalloc, a rotating window of a large pool, so small inputs come from
// DRAM, not L2), pinned (cudaMallocHost) or managed (cudaMallocManaged, resident on the GPU
// after the first call). sum_det is precision::deterministic, timed against CUB's plain sum.
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <thrust/iterator/counting_iterator.h>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpu_inputs.cuh"
#include "latency_bench.cuh"
#include "../median_timer.hpp"
#include "../precision_ops.hpp"
#if PREDUCE_BENCH_KOKKOS_CUDA
#include "plain_kokkos.hpp"
#endif
#include "preduce/cuda/reduce.cuh"
#include "preduce/preduce.hpp"

namespace preduce::bench_gpu {

namespace {


enum class where { device, pinned, managed, pageable };
const char* where_name(where w) {
    switch (w) {
    case where::device: return "device";
    case where::pinned: return "pinned";
    case where::managed: return "managed";
    case where::pageable: return "pageable";
    }
    return "?";
}

// Inputs: device memory from the rotating pool; pinned and managed memory one array of n
// floats per (place, n, slot), filled with values in [-1, 1) once and kept for every row of
// that size, freed by release_latency_inputs(). (Pageable rows: register_automatic_grid.)
struct host_array {
    float* p = nullptr;
    where w;
    ~host_array() {
        if (p == nullptr) return;
        if (w == where::pinned) cudaFreeHost(p);
        else cudaFree(p);
    }
};
std::map<std::tuple<int, std::size_t, int>, std::unique_ptr<host_array>> host_inputs;

const float* input(where w, std::size_t n, std::size_t iteration, int slot = 0) {
    if (w == where::device) return window<float>(n, iteration, slot);
    auto& a = host_inputs[{static_cast<int>(w), n, slot}];
    if (!a) {
        a = std::make_unique<host_array>();
        a->w = w;
        if (w == where::pinned) check(cudaMallocHost(&a->p, n * sizeof(float)), "cudaMallocHost");
        else check(cudaMallocManaged(&a->p, n * sizeof(float)), "cudaMallocManaged");
        fill_host(a->p, n, 0x9e3779b97f4a7c15ull + static_cast<std::uint64_t>(slot));
    }
    return a->p;
}

// Seconds one call is expected to take: a launch and a synchronisation, plus the bytes at
// HBM speed (device), over the host link (pinned, managed) or at one CPU core's (pageable).
double seconds_per_call(std::size_t bytes, where w) {
    const double rate = w == where::device ? 3e12 : w == where::pageable ? 5e9 : 40e9;
    return 20e-6 + static_cast<double>(bytes) / rate;
}

void row(const std::string& name, std::size_t bytes, where w, std::function<void(std::size_t)> call) {
    benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) { preduce_bench::time_calls(st, bytes, call); })
        ->UseManualTime()
        ->Iterations(preduce_bench::calls_within(seconds_per_call(bytes, w)))
        ->Unit(benchmark::kMicrosecond);
}

// The ops of the latency grid; sum_det is precision::deterministic.
enum class op { sum, max, argmin, sumsq, dot, minmax, sum_det };
const char* op_name(op o) {
    switch (o) {
    case op::sum: return "sum";
    case op::max: return "max";
    case op::argmin: return "argmin";
    case op::sumsq: return "sumsq";
    case op::dot: return "dot";
    case op::minmax: return "minmax";
    case op::sum_det: return "sum_det";
    }
    return "?";
}

float preduce_call(op o, const float* x, const float* y, std::size_t n) {
    constexpr auto cuda = preduce::backend::cuda;
    switch (o) {
    case op::sum: return preduce::reduce(cuda, x, n, preduce::sum);
    case op::max: return preduce::reduce(cuda, x, n, preduce::max);
    case op::argmin: return static_cast<float>(preduce::reduce(cuda, x, n, preduce::argmin).index);
    case op::sumsq: return preduce::reduce(cuda, x, n, preduce::sumsq);
    case op::dot: return preduce::reduce(cuda, x, y, n, preduce::dot);
    case op::minmax: return preduce::reduce(cuda, x, n, preduce::minmax).max;
    case op::sum_det: return preduce::reduce(cuda, x, n, preduce::sum, {.precision = preduce::precision::deterministic});
    }
    return 0;
}

struct square_f {
    __host__ __device__ float operator()(float v) const { return v * v; }
};
struct product_at {
    const float* x;
    const float* y;
    __host__ __device__ float operator()(std::int64_t i) const { return x[i] * y[i]; }
};
struct pair_of {
    __host__ __device__ float2 operator()(float v) const { return {v, v}; }
};
struct min_max_f2 {
    __host__ __device__ float2 operator()(float2 a, float2 b) const { return {fminf(a.x, b.x), fmaxf(a.y, b.y)}; }
};

// CUB's counterpart of each op, with temporary storage the caller allocated once: Sum, Max,
// ArgMin (value and int64 index side by side, copied back together), TransformReduce for
// sumsq, dot (a product per index) and minmax (a pair per element).
struct cub_call {
    op o;
    std::size_t n;
    void* temp = nullptr;
    std::size_t temp_bytes = 0;
    char* out = nullptr;  // 64 device bytes: the result, and argmin's index at +16

    cudaError_t run(const float* x, const float* y, cudaStream_t s) {
        const auto items = static_cast<std::int64_t>(n);
        float* f = reinterpret_cast<float*>(out);
        switch (o) {
        case op::sum:
        case op::sum_det: return cub::DeviceReduce::Sum(temp, temp_bytes, x, f, items, s);
        case op::max: return cub::DeviceReduce::Max(temp, temp_bytes, x, f, items, s);
        case op::argmin:
            return cub::DeviceReduce::ArgMin(temp, temp_bytes, x, f, reinterpret_cast<std::int64_t*>(out + 16), items, s);
        case op::sumsq:
            return cub::DeviceReduce::TransformReduce(temp, temp_bytes, x, f, items, ::cuda::std::plus<>{}, square_f{}, 0.0f, s);
        case op::dot:
            return cub::DeviceReduce::TransformReduce(temp, temp_bytes, thrust::counting_iterator<std::int64_t>(0), f, items,
                                                      ::cuda::std::plus<>{}, product_at{x, y}, 0.0f, s);
        case op::minmax:
            return cub::DeviceReduce::TransformReduce(
                temp, temp_bytes, x, reinterpret_cast<float2*>(out), items, min_max_f2{}, pair_of{},
                float2{std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()}, s);
        }
        return cudaErrorInvalidValue;
    }
    std::size_t result_bytes() const { return o == op::argmin ? 24 : o == op::minmax ? 8 : 4; }

    cub_call(op o_, std::size_t n_, const float* x, const float* y) : o(o_), n(n_) {
        check(cudaMalloc(&out, 64), "cudaMalloc (cub out)");
        check(run(x, y, nullptr), "cub temp size");
        check(cudaMalloc(&temp, temp_bytes + 1), "cudaMalloc (cub temp)");
    }
    ~cub_call() {
        cudaFree(temp);
        cudaFree(out);
    }
};

// One call of preduce's front end and one of CUB + a copy of the result to the host, on
// the it-th input of n floats at w: the two sides of every latency pair.
std::function<void(std::size_t)> preduce_side(op o, std::size_t n, where w) {
    return [=](std::size_t it) { benchmark::DoNotOptimize(preduce_call(o, input(w, n, it), input(w, n, it, 1), n)); };
}
std::function<void(std::size_t)> cub_side(op o, std::size_t n, where w) {
    auto cub = std::make_shared<std::unique_ptr<cub_call>>();
    return [=](std::size_t it) {
        const float* x = input(w, n, it);
        const float* y = input(w, n, it, 1);
        if (!*cub) *cub = std::make_unique<cub_call>(o, n, x, y);
        check((*cub)->run(x, y, cudaStreamPerThread), "cub");
        char result[32];
        check(cudaMemcpy(result, (*cub)->out, (*cub)->result_bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy (result)");
        benchmark::DoNotOptimize(result);
    };
}

void register_pair(op o, std::size_t n, where w) {
    const std::size_t inputs = o == op::dot ? 2 : 1;
    const std::size_t bytes = n * sizeof(float) * inputs;
    const std::string tail = std::string("/") + op_name(o) + "/float32/" + std::to_string(n) + "/" + where_name(w);
    row("latency/preduce" + tail, bytes, w, preduce_side(o, n, w));
    row("latency/cub" + tail, bytes, w, cub_side(o, n, w));
}

// The same two calls as register_pair, timed in turn in one row (time_interleaved:
// counters preduce_us and cub_us), so the machine's drift between rows does not enter
// their ratio: latency_pair/<op>/float32/<n>/device.
void register_interleaved_pair(op o, std::size_t n) {
    using call_t = std::function<void(std::size_t)>;
    const std::size_t inputs = o == op::dot ? 2 : 1;
    const std::size_t bytes = n * sizeof(float) * inputs;
    const std::string name = std::string("latency_pair/") + op_name(o) + "/float32/" + std::to_string(n) + "/device";
    benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) {
        std::vector<preduce_bench::candidate<call_t>> c = {{"preduce", preduce_side(o, n, where::device)},
                                                           {"cub", cub_side(o, n, where::device)}};
        preduce_bench::time_interleaved(st, bytes, c);
    })
        ->UseManualTime()
        ->Iterations(preduce_bench::calls_within(2 * seconds_per_call(bytes, where::device)))
        ->Unit(benchmark::kMicrosecond);
}

// reduce_async on a stream of the caller's, then cudaStreamSynchronize, against CUB on the
// same kind of stream: the result stays in device memory for both.
void register_stream_pair(op o, std::size_t n) {
    const std::size_t bytes = n * sizeof(float);
    const std::string tail = std::string("/") + op_name(o) + "/float32/" + std::to_string(n) + "/device";
    struct stream_state {
        cudaStream_t s{};
        void* out = nullptr;
        stream_state() {
            check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate");
            check(cudaMalloc(&out, 64), "cudaMalloc");
        }
        ~stream_state() {
            cudaFree(out);
            cudaStreamDestroy(s);
        }
    };
    row("latency/preduce_stream" + tail, bytes, where::device, [=](std::size_t it) {
        static stream_state st;
        const float* x = input(where::device, n, it);
        if (o == op::max) preduce::cuda::reduce_async(x, n, preduce::max_reducer<float>{}, static_cast<float*>(st.out), st.s);
        else preduce::cuda::reduce_async(x, n, preduce::sum_reducer<float>{}, static_cast<float*>(st.out), st.s);
        check(cudaStreamSynchronize(st.s), "sync");
    });
    auto cub = std::make_shared<std::unique_ptr<cub_call>>();
    row("latency/cub_stream" + tail, bytes, where::device, [=](std::size_t it) {
        static stream_state st;
        const float* x = input(where::device, n, it);
        if (!*cub) *cub = std::make_unique<cub_call>(o, n, x, x);
        check((*cub)->run(x, x, st.s), "cub");
        check(cudaStreamSynchronize(st.s), "sync");
    });
}

__global__ void empty_kernel() {}

void register_floors() {
    row("latency/floor/empty_kernel_sync", 0, where::device, [](std::size_t) {
        empty_kernel<<<1, 32, 0, cudaStreamPerThread>>>();
        check(cudaStreamSynchronize(cudaStreamPerThread), "sync");
    });
    static char* d = nullptr;
    row("latency/floor/copy_4_bytes", 0, where::device, [](std::size_t) {
        if (d == nullptr) check(cudaMalloc(&d, 64), "cudaMalloc");
        float v = 0;
        check(cudaMemcpy(&v, d, 4, cudaMemcpyDeviceToHost), "cudaMemcpy");
        benchmark::DoNotOptimize(v);
    });
}

// backend::automatic beside every backend this machine runs, through the front end, on
// pageable host data and on device data, to show whether automatic comes within 10% of
// the best backend at every point and is never the slowest. One row per point,
// automatic/<op>/float32/<n>/<where>, timing every candidate in turn (time_interleaved), so
// the comparison is not at the mercy of the host's drift between rows. Pageable data: one
// host array, rotated through so each call reads memory the last calls did not.
void register_automatic_grid() {
    using call_t = std::function<void(std::size_t)>;
    struct op_row {
        const char* name;
        float (*call)(preduce::backend, const float*, std::size_t);
    };
    static const op_row ops[] = {
        {"sum", [](preduce::backend b, const float* p, std::size_t n) { return preduce::reduce(b, p, n, preduce::sum); }},
        {"max", [](preduce::backend b, const float* p, std::size_t n) { return preduce::reduce(b, p, n, preduce::max); }},
        {"argmin",
         [](preduce::backend b, const float* p, std::size_t n) {
             return static_cast<float>(preduce::reduce(b, p, n, preduce::argmin).index);
         }},
    };
    static std::vector<float> host;
    constexpr std::size_t host_floats = std::size_t{1} << 29;  // 2 GiB: 2^28 rows rotate over two windows
    const auto host_data = [] {
        if (host.empty()) {
            host.resize(host_floats);
            fill_host(host.data(), host.size(), 0x2545f4914f6cdd1dull);
        }
        return host.data();
    };
    std::vector<preduce::backend> backends = preduce::available_backends();
    backends.push_back(preduce::backend::automatic);
    for (const op_row& o : ops)
        for (int e = 4; e <= 28; e += 2) {
            const std::size_t n = std::size_t{1} << e;
            const std::string tail = std::string("/") + o.name + "/float32/" + std::to_string(n);
            for (where w : {where::pageable, where::device}) {
                std::vector<preduce::backend> who = backends;
                if (w == where::device) who = {preduce::backend::cuda, preduce::backend::automatic};
                // The slowest candidate sets the pace: seq from pageable memory, one core.
                const double per_round = static_cast<double>(who.size()) * seconds_per_call(n * sizeof(float), w);
                benchmark::RegisterBenchmark(("automatic" + tail + "/" + where_name(w)).c_str(),
                                             [=, &o](benchmark::State& st) {
                                                 std::vector<preduce_bench::candidate<call_t>> c;
                                                 for (preduce::backend b : who)
                                                     c.push_back({std::string(preduce::name(b)), [=, &o](std::size_t it) {
                                                                      const float* p =
                                                                          w == where::device
                                                                              ? input(where::device, n, it)
                                                                              : host_data() + (it % (host_floats / n)) * n;
                                                                      benchmark::DoNotOptimize(o.call(b, p, n));
                                                                  }});
                                                 preduce_bench::time_interleaved(st, n * sizeof(float), c);
                                             })
                    ->UseManualTime()
                    ->Iterations(preduce_bench::calls_within(per_round, 1.0))
                    ->Unit(benchmark::kMicrosecond);
            }
        }
}

// The price of determinism: precision::fast, deterministic and compensated of one op,
// through the front end on device data, timed in turn in one row (time_interleaved:
// counters fast_us, deterministic_us, compensated_us), precision/<op>/<type>/<n>.
template <class T>
void register_precision_grid() {
    using call_t = std::function<void(std::size_t)>;
    const int top = sizeof(T) == 4 ? 30 : 28;
    for (const char* o : preduce_bench::precision_ops)
        for (int e = 20; e <= top; e += 2) {
            const std::size_t n = std::size_t{1} << e;
            const std::string_view op(o);
            const std::size_t inputs = preduce_bench::inputs_of(op);
            if (inputs == 2 && e > 28) continue;
            const std::string name = std::string("precision/") + o + "/" + preduce::detail::type_name<T>() + "/" +
                                     std::to_string(n);
            benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) {
                std::vector<preduce_bench::candidate<call_t>> c;
                for (preduce::precision p : preduce_bench::precisions)
                    c.push_back({std::string(preduce::name(p)), [=](std::size_t it) {
                                     benchmark::DoNotOptimize(preduce_bench::reduce_named(
                                         preduce::backend::cuda, op, window<T>(n, it), window<T>(n, it, 1), n,
                                         {.precision = p}));
                                 }});
                preduce_bench::time_interleaved(st, n * sizeof(T) * inputs, c);
            })
                ->UseManualTime()
                ->Iterations(preduce_bench::calls_within(3 * seconds_per_call(n * sizeof(T) * inputs, where::device), 1.0))
                ->Unit(benchmark::kMicrosecond);
        }
}

// The forms of the fixed order's block pass (grid/fixed_order.cuh) side by side, for tuning
// which one enqueue_reduce chooses: the fast sum and the chosen form through the front end,
// then each form forced (fixed::enqueue_reduce with the result in pinned memory, as the
// front end leaves it, and a stream synchronize), timed in turn in one row (counters
// <candidate>_us): forms/<precision>/sum/<type>/<n>, n = 2^20 .. 2^28.
template <class T>
void register_forms_grid() {
    using call_t = std::function<void(std::size_t)>;
    namespace fixed = preduce::cuda::detail::fixed;
    for (preduce::precision p : {preduce::precision::deterministic, preduce::precision::compensated})
        for (int e = 20; e <= 28; e += 2) {
            const std::size_t n = std::size_t{1} << e;
            const std::string name = std::string("forms/") + preduce::name(p) + "/sum/" +
                                     preduce::detail::type_name<T>() + "/" + std::to_string(n);
            const std::vector<std::pair<const char*, fixed::block_pass>> forms = {
                {"staged", fixed::block_pass::staged},
                {"one_lane", fixed::block_pass::one_lane},
                {"vector", fixed::block_pass::vector},
                {"bulk", fixed::block_pass::bulk}};
            benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) {
                static T* slot = nullptr;  // pinned, as the front end's result slot
                if (slot == nullptr) check(cudaMallocHost(&slot, sizeof(T)), "cudaMallocHost");
                std::vector<preduce_bench::candidate<call_t>> c;
                for (preduce::precision q : {preduce::precision::fast, p})
                    c.push_back({q == preduce::precision::fast ? "fast" : "chosen", [=](std::size_t it) {
                                     benchmark::DoNotOptimize(preduce::reduce(preduce::backend::cuda, window<T>(n, it),
                                                                              n, preduce::sum, {.precision = q}));
                                 }});
                for (const auto& [form_name, form] : forms)
                    c.push_back({form_name, [=](std::size_t it) {
                                     const auto run = [&](auto order) {
                                         fixed::enqueue_reduce<decltype(order)::value>(
                                             preduce::sum_reducer<T>{}, window<T>(n, it), n, slot, cudaStreamPerThread,
                                             0, form);
                                     };
                                     if (p == preduce::precision::deterministic)
                                         run(std::integral_constant<preduce::precision, preduce::precision::deterministic>{});
                                     else
                                         run(std::integral_constant<preduce::precision, preduce::precision::compensated>{});
                                     check(cudaStreamSynchronize(cudaStreamPerThread), "cudaStreamSynchronize");
                                     benchmark::DoNotOptimize(*slot);
                                 }});
                preduce_bench::time_interleaved(st, n * sizeof(T), c);
            })
                ->UseManualTime()
                ->Iterations(preduce_bench::calls_within(6 * seconds_per_call(n * sizeof(T), where::device), 1.0))
                ->Unit(benchmark::kMicrosecond);
        }
}

#if PREDUCE_BENCH_KOKKOS_CUDA
// The kokkos backend on a CUDA-enabled Kokkos beside the cuda backend, CUB + a copy of the
// result, and Kokkos' own parallel_reduce with Kokkos::Sum / Kokkos::Max (plain_kokkos.cpp),
// on the same device data, timed in turn in one row (time_interleaved: counters cuda_us,
// kokkos_us, plain_kokkos_us, cub_us): kokkos/<op>/float32/<n>/device, n = 2^20 .. 2^28.
// sum_det is precision::deterministic on both backends, against CUB's and Kokkos' plain sum;
// the sum row also times kokkos with precision::deterministic and compensated
// (kokkos_deterministic_us, kokkos_compensated_us).
void register_kokkos() {
    using call_t = std::function<void(std::size_t)>;
    for (op o : {op::sum, op::sum_det, op::max})
        for (int e = 20; e <= 28; e += 2) {
            const std::size_t n = std::size_t{1} << e;
            const std::string name = std::string("kokkos/") + op_name(o) + "/float32/" + std::to_string(n) + "/device";
            benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) {
                const auto via = [o](preduce::backend b, const float* x, std::size_t m) {
                    const preduce::options opts{.precision = o == op::sum_det ? preduce::precision::deterministic
                                                                              : preduce::precision::fast};
                    return o == op::max ? preduce::reduce(b, x, m, preduce::max) : preduce::reduce(b, x, m, preduce::sum, opts);
                };
                auto cub = std::make_shared<cub_call>(o, n, window<float>(n, 0), window<float>(n, 0));
                std::vector<preduce_bench::candidate<call_t>> c;
                for (preduce::backend b : {preduce::backend::cuda, preduce::backend::kokkos})
                    c.push_back({std::string(preduce::name(b)), [=](std::size_t it) {
                                     benchmark::DoNotOptimize(via(b, window<float>(n, it), n));
                                 }});
                // The sum row: kokkos' fixed orders beside its fast sum, in the same rounds.
                if (o == op::sum)
                    for (const auto p : {preduce::precision::deterministic, preduce::precision::compensated})
                        c.push_back({std::string("kokkos_") + preduce::name(p), [=](std::size_t it) {
                                         benchmark::DoNotOptimize(preduce::reduce(preduce::backend::kokkos,
                                                                                  window<float>(n, it), n, preduce::sum,
                                                                                  {.precision = p}));
                                     }});
                c.push_back({"plain_kokkos", [=](std::size_t it) {
                                 const float* x = window<float>(n, it);
                                 benchmark::DoNotOptimize(o == op::max ? plain_kokkos_max(x, n) : plain_kokkos_sum(x, n));
                             }});
                c.push_back({"cub", [=](std::size_t it) {
                                 const float* x = window<float>(n, it);
                                 check(cub->run(x, x, cudaStreamPerThread), "cub");
                                 float result = 0;
                                 check(cudaMemcpy(&result, cub->out, sizeof result, cudaMemcpyDeviceToHost), "cudaMemcpy");
                                 benchmark::DoNotOptimize(result);
                             }});
                preduce_bench::time_interleaved(st, n * sizeof(float), c);
            })
                ->UseManualTime()
                ->Iterations(preduce_bench::calls_within(4 * seconds_per_call(n * sizeof(float), where::device), 1.0))
                ->Unit(benchmark::kMicrosecond);
        }
}
#endif

} // namespace

void register_precision() {
    register_precision_grid<float>();
    register_precision_grid<double>();
    register_forms_grid<float>();
    register_forms_grid<double>();
}

void register_latency() {
    register_floors();
    std::vector<std::size_t> sizes;
    for (int e = 0; e <= 30; e += 2) sizes.push_back(std::size_t{1} << e);
    for (op o : {op::sum, op::max, op::argmin, op::sumsq, op::dot, op::minmax, op::sum_det})
        for (std::size_t n : sizes)
            if (o != op::dot || n <= (std::size_t{1} << 28)) register_pair(o, n, where::device);
    // The small-n goal's rows, each pair interleaved in one row as well.
    for (op o : {op::sum, op::sum_det, op::max})
        for (std::size_t n : sizes)
            if (n <= (std::size_t{1} << 20)) register_interleaved_pair(o, n);
    // Host-mapped inputs are read over the bus at 2^24 and up: their latency rows stop there.
    for (where w : {where::pinned, where::managed})
        for (op o : {op::sum, op::max, op::argmin, op::sum_det})
            for (std::size_t n : sizes)
                if (n <= (std::size_t{1} << 24)) register_pair(o, n, w);
    for (op o : {op::sum, op::max})
        for (std::size_t n : sizes) register_stream_pair(o, n);
    register_automatic_grid();
#if PREDUCE_BENCH_KOKKOS_CUDA
    register_kokkos();
#endif
}

void release_latency_inputs() { host_inputs.clear(); }

} // namespace preduce::bench_gpu
