// Where the GPU fixed order's extra time goes at 2^20-2^26 elements: the block pass, or the
// in-launch block tree that ends it? A standalone study beside the benchmark. The bulk pass
// (grid/fixed_order/bulk.cuh) runs without its ending (no counters: the block values alone)
// and, copied here, with its ending cut short at two points, timed next to the fast sum with
// and without its own ending (its last block folding the partials) and the library's launches:
//   fast            pc::enqueue_reduce, the fast sum whole
//   fast pass       reduce_partials without the counter: the partials, no fold
//   choose          fixed::enqueue_reduce as the front end calls it
//   staged / bulk   fixed::enqueue_reduce with that block-pass form forced (bulk: the whole
//                   bulk form, its in-launch tree included; staged: only where its blocks
//                   are one group of the tree, as launch_staged runs it)
//   staged pass     the library's staged kernel storing its block values, no tree (same sizes)
//   wideW pass      the staged kernel's adds with W = 1, 2, 4 warps a block, each holding its
//                   share of the rows in registers (wide_pass; powers of two only; the staged
//                   kernel is the W = 4 shape with its partial blocks and its tree), its block
//                   values compared bit for bit with the staged pass's
//   chain only      wide1 pass's adds on values made in registers, no loads: the time the
//                   order's 32 chains a block take by themselves (one warp a block)
//   empty           the same grid of one-warp CTAs, each storing one value: the launch alone
//   bulk pass       the library's bulk pass storing its block values, no tree
//   bulk count      the copy: the pass, then each CTA counts (the last one stops)
//   bulk count+load ... and the last CTA reads every block value back past L1
//   staged copy / widen   the staged kernel copied with the last round's fold through shared
//                   memory (fold_run_in_shared, as before fold_few_from_l2), and that copy
//                   with warps 1-3 staging their rows converted to the compensated float
//                   lanes' doubles (staged_variant)
//   staged packed / flagged   the staged kernel with an ending that counts nothing: the
//                   grid's last CTA waits for the others' values (staged_ending)
// Each row: GPU time a launch (events around 64 back-to-back launches on rotating windows of a
// 1 GiB pool) and host time (enqueue + stream synchronize, median of REPS rounds, each
// round timing every row once in a shuffled order).
// The choose, staged and bulk results are compared bit for bit with the host
// reference order (det::reduce_serial) on the first window.
// From the repository root, after a GPU build (for build-gpu/include/preduce/config.hpp):
//   nvcc -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -Iinclude -Ibuild-gpu/include \
//     -Ibackends/cuda/include bench/studies/fixed_order_tail.cu src/runtime/residence.cpp \
//     backends/cuda/src/info.cpp -ldl -o fixed_order_tail && ./fixed_order_tail [REPS [odd]]
// (odd: sizes off the powers of two instead, whose bits are the point). Three other modes:
// `REPS phases` stamps the phases of the staged kernel and the fast sum inside each CTA
// (probe_phases), `REPS switch` times the front end's three calls alone and interleaved,
// with the driver's shared-memory carveouts and with one carveout for all (switch_studies),
// and `REPS convert` measures how many floats an SM converts to double a clock
// (convert_rates; the compensated float lanes convert every element).
// Before the sizes, the placement probe says where a grid of four-warp CTAs sits.
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

namespace {

namespace pc = preduce::cuda::detail;
namespace fx = preduce::cuda::detail::fixed;
namespace det = preduce::detail::det;
using P = preduce::precision;

#define CK(x)                                                                                                \
    do {                                                                                                     \
        const cudaError_t e_ = (x);                                                                          \
        if (e_ != cudaSuccess) {                                                                             \
            std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));                  \
            std::exit(1);                                                                                    \
        }                                                                                                    \
    } while (0)

enum class ending { count, count_load };

// The library's in-launch tree cut short: count (count, stop) or count_load (the last
// CTA also reads every value back and stores one of them, not their tree).
template <P Q, class R, ending E>
__device__ __forceinline__ void short_tail(const R& r, det::value_t<Q, typename R::accumulator_type>* v, std::size_t m,
                                           std::size_t b0, std::size_t b1, unsigned* counters,
                                           typename R::result_type* d_result,
                                           det::value_t<Q, typename R::accumulator_type>* s) {
    using A = typename R::accumulator_type;
    using V = det::value_t<Q, A>;
    __shared__ bool last;
    if (b0 >= b1) return;
    __syncthreads();
    if (threadIdx.x == 0) {
        const unsigned here = static_cast<unsigned>(b1 - b0);
        last = pc::count_acq_rel(counters + 1, here) + here == m;
        if (last) counters[1] = 0;
    }
    __syncthreads();
    if (!last || E != ending::count_load) return;
    constexpr std::size_t G = fx::fold_group<V>;
    for (std::size_t i = threadIdx.x; i < m; i += fx::block_threads) s[i % G] = pc::load_from_l2(v + i);
    __syncthreads();
    if (threadIdx.x == 0) pc::store_whole(d_result, r.finish(det::result<Q, A>(s[0])));
}

// fixed_blocks_bulk (grid/fixed_order/bulk.cuh), copied so that its ending can be cut short (E).
template <P Q, class R, ending E>
__global__ void __launch_bounds__(fx::block_threads)
    bulk_copy_of(R r, const typename R::value_type* src, std::size_t n,
                 det::value_t<Q, typename R::accumulator_type>* __restrict__ v,
                 typename R::result_type* __restrict__ d_result, unsigned* counters) {
    using A = typename R::accumulator_type;
    using V = det::value_t<Q, A>;
    constexpr int depth = fx::bulk_depth;
    constexpr std::size_t rows = fx::bulk_rows<R>, chunks = det::block / 32 / rows, stage_bytes = fx::bulk_stage_bytes<R>;
    constexpr int U = rows < 16 ? static_cast<int>(rows) : 16;
    extern __shared__ __align__(128) unsigned char stages[];
    __shared__ unsigned long long bars[fx::warps_per_cta][depth];
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    unsigned char* ring = stages + static_cast<std::size_t>(warp) * depth * stage_bytes;
    unsigned long long* bar = bars[warp];
    if (lane == 0) {
        for (int d = 0; d < depth; ++d) pc::bulk::barrier_init(bar + d, 1);
        pc::bulk::barrier_init_fence();
    }
    __syncwarp();
    const std::size_t m = det::block_count(n), full = n / det::block;
    const std::size_t share = fx::bulk_share(m, gridDim.x);  // the library's shares
    const std::size_t start = static_cast<std::size_t>(blockIdx.x) * share < m ? blockIdx.x * share : m;
    const std::size_t end = start + share < m ? start + share : m;
    const std::size_t mine = start + warp, end_full = end < full ? end : full;
    const std::size_t total = mine < end_full ? (end_full - mine + fx::warps_per_cta - 1) / fx::warps_per_cta * chunks : 0;
    const auto block_of = [&](std::size_t j) { return mine + j / chunks * fx::warps_per_cta; };
    const auto fetch = [&](std::size_t j) {
        if (lane == 0 && j < total)
            fx::bulk_fetch<R>(ring + j % depth * stage_bytes, src, block_of(j) * det::block + j % chunks * rows * 32,
                              bar + j % depth);
    };
    for (std::size_t j = 0; j < depth; ++j) fetch(j);
    V acc = det::zero<Q, A>(R::identity());
    for (std::size_t j = 0; j < total; ++j) {
        const std::size_t b = block_of(j), c = j % chunks;
        if (c == 0) acc = det::zero<Q, A>(R::identity());
        pc::bulk::barrier_wait(bar + j % depth, static_cast<unsigned>(j / depth % 2));
        const unsigned char* stage = ring + j % depth * stage_bytes;
        const std::size_t first = b * det::block + c * rows * 32;
        for (std::size_t k = 0; k < rows; k += U) {
            typename R::value_type x[U];
#pragma unroll
            for (int u = 0; u < U; ++u) x[u] = fx::bulk_value<R>(stage, k + u, lane);
#pragma unroll
            for (int u = 0; u < U; ++u) det::add<Q, A>(acc, r.lift(x[u], first + (k + u) * 32 + lane));
        }
        __syncwarp();
        fetch(j + depth);
        if (c == chunks - 1) {
            acc = fx::lane_tree<Q, A>(acc);
            if (lane == 0) v[b] = acc;
        }
    }
    if (full < m && full >= mine && full < end && (full - mine) % fx::warps_per_cta == 0) {
        const V value = fx::short_block<Q>(r, src, n, std::size_t{0}, full);
        if (lane == 0) v[full] = value;
    }
    __shared__ alignas(16) V fold_space[fx::fold_group<V>];
    short_tail<Q, R, E>(r, v, m, start, end, counters, d_result, fold_space);
}

template <P Q, class R, ending E>
void launch_copy(const R& r, const typename R::value_type* x, std::size_t n, typename R::result_type* out,
                 cudaStream_t s) {
    using V = det::value_t<Q, typename R::accumulator_type>;
    const std::size_t m = det::block_count(n);
    const auto ws = pc::counted_workspace_for(m * sizeof(V), s, nullptr);
    constexpr std::size_t shared = fx::bulk_shared_bytes<R>;
    static const int ctas = [] {
        CK(cudaFuncSetAttribute(bulk_copy_of<Q, R, E>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                static_cast<int>(shared)));
        int per = 0, sms = 0, device = 0;
        CK(cudaGetDevice(&device));
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, bulk_copy_of<Q, R, E>, fx::block_threads, shared));
        CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return per * sms;
    }();
    const std::size_t share = fx::bulk_share(m, static_cast<std::size_t>(ctas));
    const unsigned grid = static_cast<unsigned>((m + share - 1) / share);  // as launch_blocks launches the bulk pass
    pc::launch_shared("bulk_copy_of", bulk_copy_of<Q, R, E>, grid, fx::block_threads, shared, s, r, x, n,
                      static_cast<V*>(ws.values), out, ws.done);
}

// The staged kernel's adds with W warps a block, each thread holding its warp's share of the
// block's rows in registers (128 / W values of its lane: all of the block's rows for W = 1,
// loaded at once): warps 1 .. W-1 put theirs in shared memory and arrive, warp 0 adds its
// own and then theirs in order. Block values only (full blocks: n a multiple of 4096),
// compared bit for bit with the staged pass's.
template <P Q, class R, int W>
__global__ void __launch_bounds__(32 * W)
    wide_pass(R r, const typename R::value_type* src, det::value_t<Q, typename R::accumulator_type>* v) {
    using A = typename R::accumulator_type;
    using V = det::value_t<Q, A>;
    constexpr int rows = static_cast<int>(det::block / 32) / W;
    __shared__ A stage[W > 1 ? (W - 1) * rows * 32 : 1];
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const std::size_t first = static_cast<std::size_t>(blockIdx.x) * det::block;
    const std::size_t mine = first + warp * rows * 32 + lane;
    A x[rows];
#pragma unroll
    for (int u = 0; u < rows; ++u) x[u] = r.lift(src[mine + 32 * u], mine + 32 * u);
    if (warp != 0) {
#pragma unroll
        for (int u = 0; u < rows; ++u) stage[(warp - 1) * rows * 32 + lane + 32 * u] = x[u];
        pc::named_arrive(warp, 64);
        return;
    }
    V acc = det::zero<Q, A>(R::identity());
#pragma unroll
    for (int u = 0; u < rows; ++u) det::add<Q, A>(acc, x[u]);
    for (int w = 1; w < W; ++w) {
        pc::named_sync(w, 64);
#pragma unroll
        for (int u = 0; u < rows; ++u) x[u] = stage[(w - 1) * rows * 32 + lane + 32 * u];
#pragma unroll
        for (int u = 0; u < rows; ++u) det::add<Q, A>(acc, x[u]);
    }
    acc = fx::lane_tree<Q, A>(acc);
    if (lane == 0) v[blockIdx.x] = acc;
}

// wide1 pass's adds with no loads: each lane adds 128 values made from its lane and row
// (off the chain of adds), so the kernel's time is the chain's.
template <P Q, class R>
__global__ void __launch_bounds__(32)
    chain_only(typename R::accumulator_type seed, det::value_t<Q, typename R::accumulator_type>* v) {
    using A = typename R::accumulator_type;
    using V = det::value_t<Q, A>;
    const unsigned lane = threadIdx.x % 32;
    V acc = det::zero<Q, A>(R::identity());
#pragma unroll 16
    for (int u = 0; u < static_cast<int>(det::block / 32); ++u) det::add<Q, A>(acc, seed * A(u + 1) + A(lane));
    acc = fx::lane_tree<Q, A>(acc);
    if (lane == 0) v[blockIdx.x] = acc;
}

// The library's staged kernel's adds of block blockIdx.x (a full block) in its four warps:
// warps 1-3 put their rows in `stage` (as S: A, or the lane's wide type) and arrive, warp 0
// adds its own rows and then theirs in order, then the lane tree; warp 0's lane 0 returns
// the block value. mark(k, value) runs where staged_probe stamps, after the value it waits
// for: 6 warp 1's rows staged (in warp 1), 0 warp 0's own rows added, 1 every row added, 2
// the lane tree (in warp 0).
template <P Q, class R, class S, class Mark>
__device__ __forceinline__ det::value_t<Q, typename R::accumulator_type> staged_adds(const R& r,
                                                                                   const typename R::value_type* src,
                                                                                   S* stage, Mark mark) {
    using A = typename R::accumulator_type;
    using V = det::value_t<Q, A>;
    constexpr unsigned quarter = fx::staged_quarter, rows = quarter / 32;
    const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const std::size_t first = static_cast<std::size_t>(blockIdx.x) * det::block;
    V acc = det::zero<Q, A>(R::identity());
    const unsigned mine = warp * quarter + lane;
    const auto row = src + (first + mine);
    A x[rows];
#pragma unroll
    for (unsigned u = 0; u < rows; ++u) x[u] = r.lift(row[32 * u], first + mine + 32 * u);
    if (warp != 0) {
#pragma unroll
        for (unsigned u = 0; u < rows; ++u) stage[mine - quarter + 32 * u] = static_cast<S>(x[u]);
        if (warp == 1) mark(6, x[rows - 1]);
        pc::named_arrive(warp, 64);
        return acc;
    }
#pragma unroll
    for (unsigned u = 0; u < rows; ++u) det::add<Q, A>(acc, x[u]);
    mark(0, acc);
#pragma unroll 1
    for (unsigned w = 1; w < 4; ++w) {
        pc::named_sync(w, 64);
        S y[rows];
#pragma unroll
        for (unsigned u = 0; u < rows; ++u) y[u] = stage[(w - 1) * quarter + lane + 32 * u];
#pragma unroll
        for (unsigned u = 0; u < rows; ++u) {
            if constexpr (std::is_same_v<S, A>) det::add<Q, A>(acc, y[u]);
            else acc.s = det::plus(acc.s, y[u]);  // det::add of the float, whose conversion is y[u]
        }
    }
    mark(1, acc);
    acc = fx::lane_tree<Q, A>(acc);
    mark(2, acc);
    return acc;
}
inline constexpr auto no_mark = [](int, const auto&) {};

// Shared memory of a staged CTA whose rows are staged as S: the rows of warps 1-3, then a
// group of the tree's values.
template <class S, class V>
inline constexpr std::size_t staged_bytes = std::max(3 * std::size_t{fx::staged_quarter} * sizeof(S),
                                                     fx::fold_group<V> * sizeof(V));

// The library's staged kernel (full blocks, m > 1 only) with its last round's fold through
// shared memory (fold_run_in_shared, what the library's did before fold_few_from_l2), and
// one change to try (Widen): warps 1-3 convert their rows to the lane's accumulator (double
// for compensated floats) before they stage them, so warp 0 converts a quarter of the rows,
// not all. Same adds in the same order: the bits of the library's.
template <P Q, class R, bool Widen>
__global__ void __launch_bounds__(fx::staged_block_threads)
    staged_variant(R r, const typename R::value_type* src, std::size_t,
                   det::value_t<Q, typename R::accumulator_type>* __restrict__ v,
                   typename R::result_type* __restrict__ d_result, unsigned* counters) {
    using A = typename R::accumulator_type;
    using V = det::value_t<Q, A>;
    using S = std::conditional_t<Widen, det::wide_t<Q, A>, A>;  // what is staged
    __shared__ alignas(16) unsigned char raw[staged_bytes<S, V>];
    const V acc = staged_adds<Q>(r, src, reinterpret_cast<S*>(raw), no_mark);
    fx::hand_on<Q>(r, acc, v + blockIdx.x, gridDim.x, counters,
                   [&] { return fx::fold_run_in_shared<Q, A, fx::staged_block_threads>(reinterpret_cast<V*>(raw), v, gridDim.x); },
                   d_result);
}

// Phase stamps (SM clock cycles, and %globaltimer ns at entry and after the count) of the
// library's staged kernel (full blocks, m > 1) and of the fast sum's reduce_partials with its
// counter, one row of 8 a CTA. A stamp follows a volatile store of the value it waits for, so
// it is not taken before that value is there (a warp issues in order).
__device__ __forceinline__ long long stamp() { return clock64(); }
__device__ __forceinline__ unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
// A volatile store of v to shared memory: the next instruction issues after v is there, and
// no global store is added for the count's fence to wait on.
template <class V>
__device__ __forceinline__ void sink(const V& v, double*) {
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
                 typename R::result_type* __restrict__ d_result, unsigned* counters, long long* out, double* dump) {
    using A = typename R::accumulator_type;
    using V = det::value_t<Q, A>;
    __shared__ alignas(16) unsigned char raw[staged_bytes<A, V>];
    __shared__ bool last;
    long long* o = out + 10 * blockIdx.x;
    const long long t0 = stamp();
    const unsigned long long g0 = global_ns();
    const std::size_t b = blockIdx.x;
    const V acc = staged_adds<Q>(r, src, reinterpret_cast<A*>(raw), [&](int k, const auto& value) {
        sink(value, dump + threadIdx.x);
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
    const V sum = fx::fold_run_in_shared<Q, A, fx::staged_block_threads>(reinterpret_cast<V*>(raw), v, gridDim.x);
    if (threadIdx.x == 0) {
        pc::store_whole(d_result, r.finish(det::result<Q, A>(sum)));
        sink(sum, dump);
        o[4] = stamp() - t0;  // the last CTA's fold
    }
}

template <class R>
__global__ void __launch_bounds__(preduce::cuda::tuning::block_threads)
    fast_probe(R r, const typename R::value_type* data, std::size_t n, typename R::accumulator_type* partials,
               typename R::result_type* result, unsigned* done, long long* out, double* dump) {
    constexpr int B = preduce::cuda::tuning::block_threads;
    using A = typename R::accumulator_type;
    __shared__ bool last;
    long long* o = out + 10 * blockIdx.x;
    const long long t0 = stamp();
    const unsigned long long g0 = global_ns();
    auto acc = pc::thread_fold<B>(r, data, n, std::size_t{0});
    sink(acc, dump + threadIdx.x);
    if (threadIdx.x == 0) o[0] = stamp() - t0;  // thread 0's loads and adds
    acc = pc::block_reduce<B, R>(acc);
    sink(acc, dump + threadIdx.x);
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
        sink(acc, dump);
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
        const auto at = [=](std::size_t k) { return pool + (k * (n + 4096 * 3)) % (pool_n - n - 4096) / 16 * 16; };
        const unsigned m = static_cast<unsigned>(det::block_count(n));
        constexpr int B = preduce::cuda::tuning::block_threads;
        const unsigned fast_grid = static_cast<unsigned>(pc::grid_for<B, R>(n));
        long long* d_stamps = nullptr;
        double* dump = nullptr;
        CK(cudaMalloc(&d_stamps, 10 * std::max(m, fast_grid) * sizeof(long long)));
        CK(cudaMalloc(&dump, 256 * sizeof(double)));
        const auto report = [&](const char* what, unsigned grid, auto launch) {
            constexpr int K = 10;
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
            const auto mid = [](std::vector<double> x) {
                if (x.empty()) return -1.0;
                std::sort(x.begin(), x.end());
                return x[x.size() / 2];
            };
            std::printf("%s %s 2^%.0f, %u CTAs: host %.2f us; entry spread %.0f ns\n", what,
                        sizeof(T) == 4 ? "float" : "double", std::log2(static_cast<double>(n)), grid, mid(host),
                        mid(spread));
            const char* names[K] = {"own rows / thread fold", "all rows", "lane / block tree", "counted",
                                    "last CTA folded", "", "warp 1 staged", "entry->counted ns", "release fence", ""};
            for (int k = 0; k < K; ++k)
                if (k != 5 && !med[k].empty())
                    std::printf("    %-24s median %8.0f  max %8.0f  last CTA %8.0f\n", names[k], mid(med[k]), mid(mx[k]),
                                mid(lastv[k]));
        };
        const auto ws_for = [&](std::size_t bytes) { return pc::counted_workspace_for(bytes, s, nullptr); };
        report("fast   ", fast_grid, [&](std::size_t k) {
            const auto ws = ws_for(fast_grid * sizeof(T));
            pc::launch("fast_probe", fast_probe<R>, fast_grid, B, s, r, at(k), n, static_cast<T*>(ws.values), d_out,
                       ws.done, d_stamps, dump);
        });
        if (fx::staged_holds<P::deterministic, R>(m))
            report("det    ", m, [&](std::size_t k) {
                const auto ws = ws_for(m * sizeof(T));
                pc::launch("staged_probe", staged_probe<P::deterministic, R>, m, fx::staged_block_threads, s, r, at(k),
                           static_cast<T*>(ws.values), d_out, ws.done, d_stamps, dump);
            });
        if (fx::staged_holds<P::compensated, R>(m))
            report("comp   ", m, [&](std::size_t k) {
                using V = det::value_t<P::compensated, T>;
                const auto ws = ws_for(m * sizeof(V));
                pc::launch("staged_probe", staged_probe<P::compensated, R>, m, fx::staged_block_threads, s, r, at(k),
                           static_cast<V*>(ws.values), d_out, ws.done, d_stamps, dump);
            });
        CK(cudaFree(d_stamps));
        CK(cudaFree(dump));
    }
}

// The staged kernel with another ending, for the cost of its count: no counter. The last
// CTA of the grid (by index) waits for the others' values instead of learning from a count
// that it is the last to finish.
//   Packed (4-byte block values): each CTA stores its value and the launch's epoch as one
//     8-byte word (single-copy atomic), no fence; the waiting CTA reads the words until every
//     one has this epoch.
//   Flagged (any value): each CTA stores its value, a release fence, then its flag (the
//     epoch); the waiting CTA reads the flags until every one is set, an acquire fence, then
//     the values.
// The fold is the library's tree of the values in shared memory: the same bits.
enum class ending_form { packed, flagged };

template <P Q, class R, ending_form E>
__global__ void __launch_bounds__(fx::staged_block_threads)
    staged_ending(R r, const typename R::value_type* src, det::value_t<Q, typename R::accumulator_type>* __restrict__ v,
                  unsigned long long* __restrict__ words, unsigned* __restrict__ flags, unsigned epoch,
                  typename R::result_type* __restrict__ d_result) {
    using A = typename R::accumulator_type;
    using V = det::value_t<Q, A>;
    constexpr std::size_t G = fx::fold_group<V>;
    __shared__ alignas(16) unsigned char raw[staged_bytes<A, V>];
    const std::size_t b = blockIdx.x;
    const unsigned m = gridDim.x;
    const V acc = staged_adds<Q>(r, src, reinterpret_cast<A*>(raw), no_mark);
    const bool waiter = b == m - 1;
    if (threadIdx.x == 0) {
        if constexpr (E == ending_form::packed) {
            static_assert(sizeof(V) == 4 || E != ending_form::packed);
            unsigned bits;
            memcpy(&bits, &acc, 4);
            const unsigned long long w = (static_cast<unsigned long long>(epoch) << 32) | bits;
            asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(words + b), "l"(w) : "memory");
        } else {
            v[b] = acc;
            asm volatile("fence.acq_rel.gpu;" ::: "memory");
            asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(flags + b), "r"(epoch) : "memory");
        }
    }
    if (!waiter) return;
    __syncthreads();  // the stage is free for the values
    V* s = reinterpret_cast<V*>(raw);
    constexpr int C = 8;  // slots a thread reads at once
    for (unsigned c0 = threadIdx.x; c0 < m; c0 += C * fx::staged_block_threads) {
        bool ready;
        do {
            ready = true;
#pragma unroll
            for (int k = 0; k < C; ++k) {
                const unsigned i = c0 + k * fx::staged_block_threads;
                if (i >= m) break;
                if constexpr (E == ending_form::packed) {
                    unsigned long long w;
                    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(w) : "l"(words + i) : "memory");
                    if (static_cast<unsigned>(w >> 32) != epoch) ready = false;
                    const unsigned bits = static_cast<unsigned>(w);
                    memcpy(s + i, &bits, 4);
                } else {
                    unsigned f;
                    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(f) : "l"(flags + i) : "memory");
                    if (f != epoch) ready = false;
                }
            }
        } while (!ready);
    }
    if constexpr (E == ending_form::flagged) {
        asm volatile("fence.acq_rel.gpu;" ::: "memory");
        for (unsigned i = threadIdx.x; i < m; i += fx::staged_block_threads) s[i] = pc::load_from_l2(v + i);
    }
    const V sum = fx::tree_in_shared<Q, A, fx::staged_block_threads, G>(s, m);
    if (threadIdx.x == 0) pc::store_whole(d_result, r.finish(det::result<Q, A>(sum)));
}

// How fast an SM converts floats to doubles, the compensated float lanes' one extra
// instruction an element: each thread converts `per_thread` normal floats (bit patterns made
// from its index) and adds them into four double accumulators. Form 0: cvt.f64.f32 (F2F);
// 1: the double's bits built with integer instructions (exact for normal floats only, which
// is all this kernel makes); 2: every other float each way.
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

template <class V>
__global__ void __launch_bounds__(32) empty_blocks(V* v) {
    if (threadIdx.x == 0) v[blockIdx.x] = V{};
}

struct row {
    std::string name;
    std::function<void(std::size_t)> enqueue;  // on the study's stream, input window k
    bool reference;                            // compared with the host reference order
    P precision;
    std::vector<double> host;
    double gpu = 0;
};

template <class T>
void study(std::size_t n, int reps, const T* pool, std::size_t pool_n, T* d_out, cudaStream_t s) {
    using R = preduce::sum_reducer<T>;
    const R r{};
    // Rotating 16-byte aligned windows (the bulk copies need them), so no call reads from L2.
    const auto at = [=](std::size_t k) { return pool + (k * (n + 4096 * 3)) % (pool_n - n - 4096) / 16 * 16; };
    std::vector<row> rows;
    rows.push_back({"fast", [=](std::size_t k) { pc::enqueue_reduce(r, at(k), n, d_out, s); }, false, P::fast, {}});
    rows.push_back({"fast pass", [=](std::size_t k) {
                        constexpr int B = preduce::cuda::tuning::block_threads;
                        const int blocks = pc::grid_for<B, R>(n);
                        const auto ws = pc::counted_workspace_for(static_cast<std::size_t>(blocks) * sizeof(T), s, nullptr);
                        pc::launch("reduce_partials", pc::reduce_partials<B, R>, static_cast<unsigned>(blocks), B, s, r,
                                   at(k), n, std::size_t{0}, static_cast<T*>(ws.values), static_cast<T*>(nullptr),
                                   static_cast<unsigned*>(nullptr));
                    },
                    false, P::fast, {}});
    const auto add = [&](auto q) {
        constexpr P Q = decltype(q)::value;
        const std::string p = Q == P::deterministic ? "det " : "comp ";
        using F = fx::block_pass;
        // Past what the staged form holds its rows would time another form, or nothing, so
        // they are left out.
        const bool staged = fx::staged_holds<Q, R>(det::block_count(n));
        rows.push_back({p + "choose", [=](std::size_t k) { fx::enqueue_reduce<Q>(r, at(k), n, d_out, s); }, true, Q, {}});
        if (staged)
            rows.push_back({p + "staged",
                            [=](std::size_t k) { fx::enqueue_reduce<Q>(r, at(k), n, d_out, s, 0, F::staged); }, true,
                            Q, {}});
        rows.push_back({p + "bulk", [=](std::size_t k) { fx::enqueue_reduce<Q>(r, at(k), n, d_out, s, 0, F::bulk); },
                        true, Q, {}});
        if (staged && n % det::block == 0 && n > det::block) {
            const auto variant = [=](auto widen) {
                return [=](std::size_t k) {
                    using V = det::value_t<Q, T>;
                    const std::size_t m = det::block_count(n);
                    const auto ws = pc::counted_workspace_for(m * sizeof(V), s, nullptr);
                    pc::launch("staged_variant", staged_variant<Q, R, decltype(widen)::value>,
                               static_cast<unsigned>(m), fx::staged_block_threads, s, r, at(k), n,
                               static_cast<V*>(ws.values), d_out, ws.done);
                };
            };
            using yes = std::true_type;
            using no = std::false_type;
            {
                using V = det::value_t<Q, T>;
                const std::size_t m = det::block_count(n);
                static unsigned long long* words = nullptr;
                static unsigned* flags = nullptr;
                static unsigned epoch = 0;
                if (words == nullptr) {
                    CK(cudaMalloc(&words, 8 << 16));
                    CK(cudaMalloc(&flags, 4 << 16));
                    CK(cudaMemset(words, 0, 8 << 16));
                    CK(cudaMemset(flags, 0, 4 << 16));
                }
                const auto ending = [=](auto e) {
                    return [=](std::size_t k) {
                        const auto ws = pc::counted_workspace_for(m * sizeof(V), s, nullptr);
                        pc::launch("staged_ending", staged_ending<Q, R, decltype(e)::value>, static_cast<unsigned>(m),
                                   fx::staged_block_threads, s, r, at(k), static_cast<V*>(ws.values), words, flags,
                                   ++epoch, d_out);
                    };
                };
                if constexpr (sizeof(V) == 4)
                    rows.push_back({p + "staged packed",
                                    ending(std::integral_constant<ending_form, ending_form::packed>{}), true, Q, {}});
                rows.push_back({p + "staged flagged",
                                ending(std::integral_constant<ending_form, ending_form::flagged>{}), true, Q, {}});
            }
            rows.push_back({p + "staged copy", variant(no{}), true, Q, {}});
            if (!std::is_same_v<det::wide_t<Q, T>, T>) rows.push_back({p + "staged widen", variant(yes{}), true, Q, {}});
        }
        if (staged)
            rows.push_back({p + "staged pass", [=](std::size_t k) {
                                using V = det::value_t<Q, T>;
                                const std::size_t m = det::block_count(n);
                                const auto ws = pc::counted_workspace_for(m * sizeof(V), s, nullptr);
                                fx::launch_staged<Q>(r, at(k), n, m, static_cast<V*>(ws.values), d_out, nullptr, s,
                                                     false);
                            },
                            false, Q, {}});
        if (staged && n % det::block == 0) {
            const std::function<void(std::size_t)> staged_pass = rows.back().enqueue;  // pushed just above
            using V = det::value_t<Q, T>;
            const std::size_t m = det::block_count(n);
            const auto wide = [=](auto w) {
                constexpr int W = decltype(w)::value;
                return [=](std::size_t k) {
                    const auto ws = pc::counted_workspace_for(m * sizeof(V), s, nullptr);
                    pc::launch("wide_pass", wide_pass<Q, R, W>, static_cast<unsigned>(m), 32 * W, s, r, at(k),
                               static_cast<V*>(ws.values));
                };
            };
            rows.push_back({p + "wide1 pass", wide(std::integral_constant<int, 1>{}), false, Q, {}});
            rows.push_back({p + "wide2 pass", wide(std::integral_constant<int, 2>{}), false, Q, {}});
            rows.push_back({p + "wide4 pass", wide(std::integral_constant<int, 4>{}), false, Q, {}});
            // Their block values against the staged pass's, bit for bit, on window 0.
            const auto values = [=](const std::function<void(std::size_t)>& pass) {
                pass(0);
                CK(cudaStreamSynchronize(s));
                const auto ws = pc::counted_workspace_for(m * sizeof(V), s, nullptr);
                std::vector<V> got(m);
                CK(cudaMemcpy(got.data(), ws.values, m * sizeof(V), cudaMemcpyDeviceToHost));
                return got;
            };
            const std::vector<V> want = values(staged_pass);
            for (std::size_t i = rows.size() - 3; i < rows.size(); ++i)
                if (std::memcmp(values(rows[i].enqueue).data(), want.data(), m * sizeof(V)) != 0)
                    std::printf("  BLOCK VALUES DIFFER from the staged pass's: %s\n", rows[i].name.c_str());
            rows.push_back({p + "chain only", [=](std::size_t k) {
                                const auto ws = pc::counted_workspace_for(m * sizeof(V), s, nullptr);
                                pc::launch("chain_only", chain_only<Q, R>, static_cast<unsigned>(m), 32, s,
                                           static_cast<T>(1 + k % 7), static_cast<V*>(ws.values));
                            },
                            false, Q, {}});
            rows.push_back({p + "empty", [=](std::size_t) {
                                const auto ws = pc::counted_workspace_for(m * sizeof(V), s, nullptr);
                                pc::launch("empty_blocks", empty_blocks<V>, static_cast<unsigned>(m), 32, s,
                                           static_cast<V*>(ws.values));
                            },
                            false, Q, {}});
        }
        rows.push_back({p + "bulk pass", [=](std::size_t k) {
                            using V = det::value_t<Q, T>;
                            const auto ws = pc::counted_workspace_for(det::block_count(n) * sizeof(V), s, nullptr);
                            fx::launch_blocks<Q>(r, at(k), n, 0, static_cast<V*>(ws.values), static_cast<T*>(nullptr),
                                                 nullptr, s, 0, F::bulk);
                        },
                        false, Q, {}});
        rows.push_back({p + "bulk count", [=](std::size_t k) { launch_copy<Q, R, ending::count>(r, at(k), n, d_out, s); },
                        false, Q, {}});
        rows.push_back({p + "bulk count+load",
                        [=](std::size_t k) { launch_copy<Q, R, ending::count_load>(r, at(k), n, d_out, s); }, false, Q,
                        {}});
    };
    add(std::integral_constant<P, P::deterministic>{});
    add(std::integral_constant<P, P::compensated>{});

    std::vector<T> h(n);
    CK(cudaMemcpy(h.data(), at(0), n * sizeof(T), cudaMemcpyDeviceToHost));
    const T want_det = det::reduce_serial<P::deterministic>(r, h.data(), n);
    const T want_comp = det::reduce_serial<P::compensated>(r, h.data(), n);
    int wrong = 0;
    for (auto& x : rows) {
        if (!x.reference) continue;
        x.enqueue(0);
        T got;
        CK(cudaMemcpy(&got, d_out, sizeof(T), cudaMemcpyDeviceToHost));
        const T& want = x.precision == P::deterministic ? want_det : want_comp;
        if (std::memcmp(&got, &want, sizeof(T)) != 0) {
            std::printf("  BITS DIFFER from the host reference: %s\n", x.name.c_str());
            ++wrong;
        }
    }

    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::size_t it = 1;
    for (auto& x : rows) {
        for (int w = 0; w < 8; ++w) x.enqueue(it++);
        CK(cudaEventRecord(e0, s));
        for (int w = 0; w < 64; ++w) x.enqueue(it++);
        CK(cudaEventRecord(e1, s));
        CK(cudaEventSynchronize(e1));
        float ms = 0;
        CK(cudaEventElapsedTime(&ms, e0, e1));
        x.gpu = ms * 1000.0 / 64;
    }
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    // Each round times the rows in an order of its own (one seed for the run): a row follows
    // a random other one, mostly another kernel, as the precision benchmark's rows do, not
    // always the same neighbour (a row right after a launch of its own kernel took up to 0.5 us
    // less host time).
    std::vector<std::size_t> order(rows.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::mt19937 shuffle_rng(7);
    for (int rep = 0; rep < reps; ++rep) {
        std::shuffle(order.begin(), order.end(), shuffle_rng);
        for (const std::size_t i : order) {
            auto& x = rows[i];
            const auto t0 = std::chrono::steady_clock::now();
            x.enqueue(it++);
            CK(cudaStreamSynchronize(s));
            x.host.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
        }
    }
    const auto median = [](std::vector<double> v) {
        std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
        return v[v.size() / 2];
    };
    const double fast = median(rows[0].host);
    std::printf("%s sum, n = 2^%.2f (%zu blocks): %s\n", sizeof(T) == 4 ? "float" : "double",
                std::log2(static_cast<double>(n)), det::block_count(n), wrong ? "BITS DIFFER" : "bits as the host's");
    std::printf("  %-18s %10s %10s %10s\n", "", "gpu us", "host us", "fast/this");
    for (const auto& x : rows)
        std::printf("  %-18s %10.2f %10.2f %10.3f\n", x.name.c_str(), x.gpu, median(x.host), fast / median(x.host));
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
    const auto at = [=](std::size_t k) { return pool + (k * (n + 4096 * 3)) % (pool_n - n - 4096) / 16 * 16; };
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
    const auto median = [](std::vector<double> v) {
        std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
        return v[v.size() / 2];
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
    const int reps = argc > 1 ? std::atoi(argv[1]) : 300;
    const std::size_t pool_bytes = std::size_t{1} << 30;
    void* pool = nullptr;
    CK(cudaMalloc(&pool, pool_bytes));
    double* d_out = nullptr;
    CK(cudaMalloc(&d_out, sizeof(double)));
    const cudaStream_t s = cudaStreamPerThread;
    std::mt19937_64 g(3);
    {
        std::vector<float> h(pool_bytes / sizeof(float));
        std::normal_distribution<float> d(0.f, 1.f);
        for (auto& v : h) v = d(g);
        CK(cudaMemcpy(pool, h.data(), pool_bytes, cudaMemcpyHostToDevice));
    }
    if (argc > 2 && std::string(argv[2]) == "convert") {
        convert_rates(reps);
        return 0;
    }
    if (argc > 2 && std::string(argv[2]) == "phases") {
        probe_phases<float>(reps, static_cast<const float*>(pool), pool_bytes / sizeof(float),
                            reinterpret_cast<float*>(d_out), s);
        probe_phases<double>(reps, static_cast<const double*>(pool), pool_bytes / sizeof(double), d_out, s);
        return 0;
    }
    if (argc > 2 && std::string(argv[2]) == "switch") {
        switch_studies(reps, pool, pool_bytes, d_out, s);
        return 0;
    }
    probe_placement(256);
    probe_placement(528);
    // With a second argument: sizes off the powers of two (short last blocks and groups), for the bits.
    const std::vector<std::size_t> sizes =
        argc > 2 ? std::vector<std::size_t>{(std::size_t{1} << 20) + 3 * 4096 + 5, 3 * (std::size_t{1} << 22) + 77,
                                            5 * (std::size_t{1} << 23) + 1, (std::size_t{1} << 26) - 4097}
                 : std::vector<std::size_t>{std::size_t{1} << 20, std::size_t{1} << 22, std::size_t{1} << 24,
                                            std::size_t{1} << 26};
    for (const std::size_t n : sizes)
        study<float>(n, reps, static_cast<const float*>(pool), pool_bytes / sizeof(float),
                     reinterpret_cast<float*>(d_out), s);
    {
        std::vector<double> h(pool_bytes / sizeof(double));
        std::normal_distribution<double> d(0.0, 1.0);
        for (auto& v : h) v = d(g);
        CK(cudaMemcpy(pool, h.data(), pool_bytes, cudaMemcpyHostToDevice));
    }
    for (const std::size_t n : sizes)
        study<double>(n, reps, static_cast<const double*>(pool), pool_bytes / sizeof(double), d_out, s);
    return 0;
}
