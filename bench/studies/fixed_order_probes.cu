// Inside the GPU fixed order's kernels at 2^20-2^22 elements, beside fixed_order_tail.cu
// (which times whole launches): where the time of a launch goes, phase by phase, and what
// the launches around a call change. Modes (REPS: launches or calls a row):
//   placement   where a grid of 256 and of 528 four-warp CTAs sits: CTAs an SM, and whether
//               two CTAs on one SM have their warp 0 (the staged kernel's adding warp) on
//               one sub-partition
//   phases      SM-cycle stamps inside each CTA of the staged kernel and of the fast sum's
//               kernel (copies of both with stamps): the pass, the lane or block tree, the
//               release fence and the count, the last CTA's fold (probe_phases)
//   switch      the front end's fast, deterministic and compensated calls, each alone and
//               interleaved, with the driver's shared-memory carveouts and with one for all
//               (switch_studies)
//   convert     floats an SM converts to double a clock: cvt.f64.f32, integer instructions,
//               half each way (the compensated float lanes convert every element)
// From the repository root, after a GPU build (for build-gpu/include/preduce/config.hpp):
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild-gpu/include \
//     -Ibackends/cuda/include bench/studies/fixed_order_probes.cu src/runtime/residence.cpp \
//     backends/cuda/src/info.cpp -ldl -o fixed_order_probes && ./fixed_order_probes REPS MODE
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "preduce/cuda/reduce.cuh"
#include "preduce/ops.hpp"
#include "fixed_order_study.cuh"

namespace {

// Phase stamps (SM clock cycles, and %globaltimer ns at entry and after the count) of the
// library's staged kernel (full blocks, m > 1) and of the fast sum's reduce_partials with its
// counter, a row of stamps_a_cta a CTA: cycles from the CTA's entry to 0 warp 0's own rows
// added (the fast sum: thread 0's loads and adds), 1 every row added, 2 the lane tree (the
// block's tree), 3 the value stored and counted, 4 the last CTA's fold, 6 warp 1's rows
// staged, 8 the release fence before the count; 5 the entry's globaltimer, 7 ns from entry
// to the count. A stamp follows a volatile store of the value it waits for, so it is not
// taken before that value is there (a warp issues in order).
constexpr int stamps_a_cta = 10;
__device__ __forceinline__ long long stamp() { return clock64(); }
__device__ __forceinline__ unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
// A volatile store of v to shared memory: the next instruction issues after v is there, and
// no global store is added for the count's fence to wait on.
template <class V>
__device__ __forceinline__ void sink(const V& v) {
    __shared__ double to[256];
    if constexpr (std::is_arithmetic_v<V>) *reinterpret_cast<volatile double*>(to + threadIdx.x) = static_cast<double>(v);
    else *reinterpret_cast<volatile double*>(to + threadIdx.x) = static_cast<double>(v.s);
}
// count_acq_rel in its two halves, stamped between them (o[8]: the release fence done), and
// the acquire after the count.
__device__ __forceinline__ unsigned split_count(unsigned* counter, long long* o, long long t0) {
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
    o[8] = clock64() - t0;
    unsigned old;
    asm volatile("atom.relaxed.gpu.global.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(counter) : "memory");
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
    return old;
}

template <P Q, class R>
__global__ void __launch_bounds__(fx::staged_block_threads)
    staged_probe(R r, const typename R::value_type* src, det::value_t<Q, typename R::accumulator_type>* __restrict__ v,
                 typename R::result_type* __restrict__ d_result, unsigned* counters, long long* out) {
    using A = typename R::accumulator_type;
    using V = det::value_t<Q, A>;
    __shared__ alignas(16) unsigned char raw[staged_bytes<A, V>];
    __shared__ bool last;
    long long* o = out + stamps_a_cta * blockIdx.x;
    const long long t0 = stamp();
    const unsigned long long g0 = global_ns();
    const std::size_t b = blockIdx.x;
    const V acc = staged_adds<Q>(r, src, reinterpret_cast<A*>(raw), [&](int k, const auto& value) {
        sink(value);
        if (threadIdx.x % 32 == 0) o[k] = stamp() - t0;
    });
    if (threadIdx.x == 0) {
        v[b] = acc;
        last = split_count(counters, o, t0) + 1 == gridDim.x;
        if (last) *counters = 0;
        o[3] = stamp() - t0;  // stored and counted
        o[7] = static_cast<long long>(global_ns() - g0);
        o[5] = static_cast<long long>(g0 % (1ull << 40));
    }
    __syncthreads();
    if (!last) return;
    // The library's fold of the last round (staged.cuh).
    const V sum = fx::fold_last_round<Q, A, fx::staged_block_threads>(reinterpret_cast<V*>(raw), v, gridDim.x);
    if (threadIdx.x == 0) {
        pc::store_whole(d_result, r.finish(det::result<Q, A>(sum)));
        sink(sum);
        o[4] = stamp() - t0;  // the last CTA's fold
    }
}

template <class R>
__global__ void __launch_bounds__(preduce::cuda::tuning::block_threads)
    fast_probe(R r, const typename R::value_type* data, std::size_t n, typename R::accumulator_type* partials,
               typename R::result_type* result, unsigned* done, long long* out) {
    constexpr int B = preduce::cuda::tuning::block_threads;
    using A = typename R::accumulator_type;
    __shared__ bool last;
    long long* o = out + stamps_a_cta * blockIdx.x;
    const long long t0 = stamp();
    const unsigned long long g0 = global_ns();
    auto acc = pc::thread_fold<B>(r, data, n, std::size_t{0});
    sink(acc);
    if (threadIdx.x == 0) o[0] = stamp() - t0;  // thread 0's loads and adds
    acc = pc::block_reduce<B, R>(acc);
    sink(acc);
    if (threadIdx.x == 0) o[2] = stamp() - t0;  // the block's tree
    if (threadIdx.x == 0) pc::store_whole(partials + blockIdx.x, acc);
    __syncthreads();
    if (threadIdx.x == 0) {
        last = split_count(done, o, t0) == gridDim.x - 1;
        if (last) *done = 0;
        o[3] = stamp() - t0;
        o[7] = static_cast<long long>(global_ns() - g0);
        o[5] = static_cast<long long>(g0 % (1ull << 40));
    }
    __syncthreads();
    if (!last) return;
    acc = pc::fold_partials<B, R>(partials, gridDim.x, [](const A* p) { return pc::load_from_l2(p); });
    if (threadIdx.x == 0) {
        pc::store_whole(result, r.finish(acc));
        sink(acc);
        o[4] = stamp() - t0;
    }
}

// Runs both probes `reps` times over 2^20 and 2^22 elements and prints, per phase, the median
// over launches of the median and the max over CTAs, the last CTA's stamps, and the spread of
// the CTAs' entry times (globaltimer).
template <class T>
void probe_phases(int reps, const T* pool, std::size_t pool_n, T* d_out, cudaStream_t s) {
    using R = preduce::sum_reducer<T>;
    const R r{};
    for (const std::size_t n : {std::size_t{1} << 20, std::size_t{1} << 22}) {
        const auto at = [=](std::size_t k) { return window(pool, pool_n, n, k); };
        const unsigned m = static_cast<unsigned>(det::block_count(n));
        constexpr int B = preduce::cuda::tuning::block_threads;
        const unsigned fast_grid = static_cast<unsigned>(pc::grid_for<B, R>(n));
        long long* d_stamps = nullptr;
        CK(cudaMalloc(&d_stamps, stamps_a_cta * std::max(m, fast_grid) * sizeof(long long)));
        const auto report = [&](const char* what, unsigned grid, auto launch) {
            constexpr int K = stamps_a_cta;
            std::vector<std::vector<double>> med(K), mx(K), lastv(K);
            std::vector<double> spread, host;
            for (int rep = 0; rep < reps; ++rep) {
                CK(cudaMemset(d_stamps, 0xff, K * grid * sizeof(long long)));
                CK(cudaStreamSynchronize(s));
                const auto t0 = std::chrono::steady_clock::now();
                launch(static_cast<std::size_t>(rep) + 1);
                CK(cudaStreamSynchronize(s));
                host.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
                std::vector<long long> h(K * grid);
                CK(cudaMemcpy(h.data(), d_stamps, h.size() * sizeof(long long), cudaMemcpyDeviceToHost));
                long long gmin = h[5], gmax = h[5];
                for (unsigned c = 0; c < grid; ++c) {
                    gmin = std::min(gmin, h[K * c + 5]);
                    gmax = std::max(gmax, h[K * c + 5]);
                }
                spread.push_back(static_cast<double>(gmax - gmin));
                for (int k = 0; k < K; ++k) {
                    if (k == 5) continue;
                    std::vector<double> col;
                    for (unsigned c = 0; c < grid; ++c)
                        if (h[K * c + k] >= 0) col.push_back(static_cast<double>(h[K * c + k]));
                    if (col.empty()) continue;
                    std::sort(col.begin(), col.end());
                    med[k].push_back(col[col.size() / 2]);
                    mx[k].push_back(col.back());
                    if (k == 4) {  // the last CTA's other stamps
                        for (unsigned c = 0; c < grid; ++c)
                            if (h[K * c + 4] >= 0)
                                for (int j = 0; j < K; ++j)
                                    if (j != 5) lastv[j].push_back(static_cast<double>(h[K * c + j]));
                    }
                }
            }
            std::printf("%s %s 2^%.0f, %u CTAs: host %.2f us; entry spread %.0f ns\n", what,
                        sizeof(T) == 4 ? "float" : "double", std::log2(static_cast<double>(n)), grid, median(host),
                        median(spread));
            const char* names[K] = {"own rows / thread fold", "all rows", "lane / block tree", "counted",
                                    "last CTA folded", "", "warp 1 staged", "entry->counted ns", "release fence", ""};
            for (int k = 0; k < K; ++k)
                if (k != 5 && !med[k].empty())
                    std::printf("    %-24s median %8.0f  max %8.0f  last CTA %8.0f\n", names[k], median(med[k]),
                                median(mx[k]), median(lastv[k]));
        };
        const auto ws_for = [&](std::size_t bytes) { return pc::counted_workspace_for(bytes, s, nullptr); };
        report("fast   ", fast_grid, [&](std::size_t k) {
            const auto ws = ws_for(fast_grid * sizeof(T));
            pc::launch("fast_probe", fast_probe<R>, fast_grid, B, s, r, at(k), n, static_cast<T*>(ws.values), d_out,
                       ws.done, d_stamps);
        });
        if (fx::staged_holds<P::deterministic, R>(m))
            report("det    ", m, [&](std::size_t k) {
                const auto ws = ws_for(m * sizeof(T));
                pc::launch("staged_probe", staged_probe<P::deterministic, R>, m, fx::staged_block_threads, s, r, at(k),
                           static_cast<T*>(ws.values), d_out, ws.done, d_stamps);
            });
        if (fx::staged_holds<P::compensated, R>(m))
            report("comp   ", m, [&](std::size_t k) {
                using V = det::value_t<P::compensated, T>;
                const auto ws = ws_for(m * sizeof(V));
                pc::launch("staged_probe", staged_probe<P::compensated, R>, m, fx::staged_block_threads, s, r, at(k),
                           static_cast<V*>(ws.values), d_out, ws.done, d_stamps);
            });
        CK(cudaFree(d_stamps));
    }
}

// How fast an SM converts floats to doubles, the compensated float lanes' one extra
// instruction an element: each thread converts `per_thread` normal floats (bit patterns made
// from its index) and adds them into four double accumulators. Form 0: cvt.f64.f32 (F2F);
// 1: the double's bits built with integer instructions (exact for normal floats only, which
// is all this kernel makes); 2: every other float each way. The floats come from an integer
// generator on the same pipes as form 1's instructions: on an H100 all three forms ran at
// 13.7-14.1 a clock an SM, so that bound, not the conversion, is what the rows show.
template <int Form>
__global__ void __launch_bounds__(256) convert_rate(unsigned seed, int per_thread, double* out) {
    double acc[4] = {0, 0, 0, 0};
    unsigned u = (seed + threadIdx.x * 2654435761u) & 0x3fffffffu | 0x3f800000u;  // normal, in [1, 2)
#pragma unroll 4
    for (int k = 0; k < per_thread; ++k) {
        u = (u * 1664525u + 1013904223u) & 0x3fffffffu | 0x3f800000u;
        double d;
        if (Form == 0 || (Form == 2 && k % 2 == 0)) {
            d = static_cast<double>(__uint_as_float(u));
        } else {
            const unsigned hi = (((u & 0x7fffffffu) >> 3) + 0x38000000u) | (u & 0x80000000u);
            d = __hiloint2double(static_cast<int>(hi), static_cast<int>(u << 29));
        }
        acc[k % 4] = __dadd_rn(acc[k % 4], d);
    }
    if (acc[0] + acc[1] + acc[2] + acc[3] == 1.0) out[0] = acc[0];  // keeps the loop
}

// Conversions an SM makes per clock in each form (events around one launch of 8 CTAs of 256
// an SM), at the clock the device reports (cudaDevAttrClockRate).
void convert_rates(int reps) {
    int device = 0, sms = 0, khz = 0;
    CK(cudaGetDevice(&device));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, device));
    double* out = nullptr;
    CK(cudaMalloc(&out, sizeof(double)));
    const int per_thread = 1 << 14;
    const unsigned grid = static_cast<unsigned>(8 * sms);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    const auto rate = [&](auto kernel, const char* name) {
        std::vector<float> ms;
        for (int rep = 0; rep < reps + 2; ++rep) {
            CK(cudaEventRecord(e0));
            kernel<<<grid, 256>>>(static_cast<unsigned>(rep), per_thread, out);
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            float t = 0;
            CK(cudaEventElapsedTime(&t, e0, e1));
            if (rep >= 2) ms.push_back(t);
        }
        std::sort(ms.begin(), ms.end());
        const double conversions = static_cast<double>(grid) * 256 * per_thread;
        const double cycles = ms[ms.size() / 2] * 1e-3 * khz * 1e3;
        std::printf("  %-28s %8.3f ms  %6.2f conversions a clock an SM (at %d MHz)\n", name, ms[ms.size() / 2],
                    conversions / cycles / sms, khz / 1000);
    };
    std::printf("float to double, %d SMs:\n", sms);
    rate(convert_rate<0>, "cvt.f64.f32");
    rate(convert_rate<1>, "integer bits");
    rate(convert_rate<2>, "half each way");
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    CK(cudaFree(out));
}

// Where the CTAs of a 128-thread grid sit: each warp spins ~4 us (so the grid's CTAs are
// resident together) and records its SM and slot.
__global__ void __launch_bounds__(128) placement_probe(unsigned* out) {
    const long long t0 = clock64();
    while (clock64() - t0 < 8000) {
    }
    unsigned sm, slot;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(slot));
    if (threadIdx.x % 32 == 0) {
        out[2 * (blockIdx.x * 4 + threadIdx.x / 32)] = sm;
        out[2 * (blockIdx.x * 4 + threadIdx.x / 32) + 1] = slot;
    }
}

// Prints, for a grid of m CTAs of four warps: how many CTAs share an SM, whether each CTA's
// warps sit in four slots in a row from a multiple of four, and how often two CTAs on one SM
// have warp 0 (the staged kernel's adding warp) on the same sub-partition (slot mod 4).
void probe_placement(unsigned m) {
    unsigned* d = nullptr;
    CK(cudaMalloc(&d, m * 8 * sizeof(unsigned)));
    placement_probe<<<m, 128>>>(d);
    CK(cudaDeviceSynchronize());
    std::vector<unsigned> h(m * 8);
    CK(cudaMemcpy(h.data(), d, h.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaFree(d));
    unsigned aligned = 0, same0 = 0, pairs = 0, max_per_sm = 0;
    std::vector<std::vector<unsigned>> by_sm(1024);
    for (unsigned b = 0; b < m; ++b) {
        const unsigned* w = &h[8 * b];
        const bool a = w[1] % 4 == 0 && w[3] == w[1] + 1 && w[5] == w[1] + 2 && w[7] == w[1] + 3;
        aligned += a;
        by_sm[w[0] % 1024].push_back(b);
    }
    for (const auto& bs : by_sm) {
        max_per_sm = std::max<unsigned>(max_per_sm, static_cast<unsigned>(bs.size()));
        for (std::size_t i = 0; i < bs.size(); ++i)
            for (std::size_t j = i + 1; j < bs.size(); ++j) {
                ++pairs;
                const unsigned* p = &h[8 * bs[i]];
                const unsigned* q = &h[8 * bs[j]];
                same0 += p[1] % 4 == q[1] % 4;
            }
    }
    std::printf("placement of %u CTAs of 4 warps: at most %u an SM; %u with four slots in a row from a multiple of 4; "
                "of %u pairs on one SM, %u have warp 0 on one sub-partition\n",
                m, max_per_sm, aligned, pairs, same0);
    for (unsigned b = 0; b < 6 && b < m; ++b)
        std::printf("  CTA %u: SM %u slots %u %u %u %u\n", b, h[8 * b], h[8 * b + 1], h[8 * b + 3], h[8 * b + 5],
                    h[8 * b + 7]);
}

// The same three calls as the front end's precision rows (the fast sum, and the fixed order's
// deterministic and compensated forms as enqueue_reduce chooses them), host time (enqueue +
// stream synchronize, median of reps): each alone in a loop of its own, and interleaved
// fast, det, comp as bench/gpu's precision rows run them.
template <class T>
void switch_study(std::size_t n, int reps, const T* pool, std::size_t pool_n, T* d_out, cudaStream_t s,
                  const char* label) {
    using R = preduce::sum_reducer<T>;
    const R r{};
    const auto at = [=](std::size_t k) { return window(pool, pool_n, n, k); };
    const std::function<void(std::size_t)> call[3] = {
        [=](std::size_t k) { pc::enqueue_reduce(r, at(k), n, d_out, s); },
        [=](std::size_t k) { fx::enqueue_reduce<P::deterministic>(r, at(k), n, d_out, s); },
        [=](std::size_t k) { fx::enqueue_reduce<P::compensated>(r, at(k), n, d_out, s); }};
    const auto timed = [&](int i, std::size_t k) {
        const auto t0 = std::chrono::steady_clock::now();
        call[i](k);
        CK(cudaStreamSynchronize(s));
        return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    };
    std::size_t it = 1;
    double alone[3], mixed[3];
    for (int i = 0; i < 3; ++i) {
        std::vector<double> h;
        for (int w = 0; w < 16; ++w) timed(i, it++);
        for (int rep = 0; rep < reps; ++rep) h.push_back(timed(i, it++));
        alone[i] = median(h);
    }
    std::vector<double> h[3];
    for (int rep = 0; rep < reps + 16; ++rep)
        for (int i = 0; i < 3; ++i) {
            const double t = timed(i, it++);
            if (rep >= 16) h[i].push_back(t);
        }
    for (int i = 0; i < 3; ++i) mixed[i] = median(h[i]);
    std::printf("%-14s %s 2^%.0f  alone: fast %6.2f det %6.2f comp %6.2f (%.3f %.3f)   interleaved: fast %6.2f det "
                "%6.2f comp %6.2f (%.3f %.3f)\n",
                label, sizeof(T) == 4 ? "float " : "double", std::log2(static_cast<double>(n)), alone[0], alone[1],
                alone[2], alone[0] / alone[1], alone[0] / alone[2], mixed[0], mixed[1], mixed[2], mixed[0] / mixed[1],
                mixed[0] / mixed[2]);
}

// Sets the preferred shared-memory carveout of the fast sum's kernel and of the fixed order's
// staged and bulk kernels for T sums.
template <class T>
void carveout_all(int percent) {
    using R = preduce::sum_reducer<T>;
    constexpr int B = preduce::cuda::tuning::block_threads;
    const auto set = [&](const void* k) { CK(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, percent)); };
    set(reinterpret_cast<const void*>(pc::reduce_partials<B, R>));
    set(reinterpret_cast<const void*>(fx::fixed_blocks_staged<P::deterministic, R>));
    set(reinterpret_cast<const void*>(fx::fixed_blocks_staged<P::compensated, R>));
    set(reinterpret_cast<const void*>(fx::fixed_blocks_bulk<P::deterministic, R>));
    set(reinterpret_cast<const void*>(fx::fixed_blocks_bulk<P::compensated, R>));
}

// The switch study over 2^20 and 2^22 elements of both types, with the driver's carveouts and
// then with every kernel asking for the same one.
void switch_studies(int reps, void* pool, std::size_t pool_bytes, double* d_out, cudaStream_t s) {
    const std::size_t sizes[] = {std::size_t{1} << 20, std::size_t{1} << 22};
    const auto run = [&](const char* label) {
        for (const std::size_t n : sizes)
            switch_study<float>(n, reps, static_cast<const float*>(pool), pool_bytes / sizeof(float),
                                reinterpret_cast<float*>(d_out), s, label);
        for (const std::size_t n : sizes)
            switch_study<double>(n, reps, static_cast<const double*>(pool), pool_bytes / sizeof(double), d_out, s, label);
    };
    run("default");
    run("default again");
    carveout_all<float>(100);
    carveout_all<double>(100);
    run("carveout 100");
    carveout_all<float>(50);
    carveout_all<double>(50);
    run("carveout 50");
    carveout_all<float>(-1);
    carveout_all<double>(-1);
    run("carveout -1");
}

} // namespace

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::atoi(argv[1]) : 100;
    const std::string mode = argc > 2 ? argv[2] : "";
    if (mode == "placement") {
        probe_placement(256);
        probe_placement(528);
        return 0;
    }
    if (mode == "convert") {
        convert_rates(reps);
        return 0;
    }
    if (mode != "phases" && mode != "switch") {
        std::printf("usage: fixed_order_probes REPS placement|phases|switch|convert\n");
        return 2;
    }
    const study_memory mem = float_pool();
    void* const pool = mem.pool;
    const std::size_t pool_bytes = mem.pool_bytes;
    double* const d_out = mem.d_out;
    const cudaStream_t s = cudaStreamPerThread;
    if (mode == "phases") {
        probe_phases<float>(reps, static_cast<const float*>(pool), pool_bytes / sizeof(float),
                            reinterpret_cast<float*>(d_out), s);
        probe_phases<double>(reps, static_cast<const double*>(pool), pool_bytes / sizeof(double), d_out, s);
    } else {
        switch_studies(reps, pool, pool_bytes, d_out, s);
    }
    return 0;
}
