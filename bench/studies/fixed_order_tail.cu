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
//     backends/cuda/src/info.cpp -ldl -o fixed_order_tail && ./fixed_order_tail [REPS [odd|wide]]
// (odd: sizes off the powers of two instead, whose bits are the point; wide: floats whose
// compensated lanes do not sum exactly, main() below). fixed_order_probes.cu
// beside it looks inside the kernels.
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

// fixed_blocks_bulk (grid/fixed_order/bulk.cuh), copied so that its ending can be cut short (E),
// with chunks of Rows rows, Depth of them in flight a warp (the library's: bulk_rows, bulk_depth).
template <P Q, class R, ending E, int Depth = fx::bulk_depth, std::size_t Rows = fx::bulk_rows<R>>
__global__ void __launch_bounds__(fx::block_threads)
    bulk_copy_of(R r, const typename R::value_type* src, std::size_t n,
                 det::value_t<Q, typename R::accumulator_type>* __restrict__ v,
                 typename R::result_type* __restrict__ d_result, unsigned* counters) {
    using A = typename R::accumulator_type;
    using V = det::value_t<Q, A>;
    constexpr int depth = Depth;
    constexpr std::size_t rows = Rows, chunks = det::block / 32 / rows, stage_bytes = rows * 32 * sizeof(typename R::value_type);
    static_assert(chunks * rows * 32 == det::block);
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
        if (lane == 0 && j < total) {
            pc::bulk::barrier_expect(bar + j % depth, static_cast<unsigned>(stage_bytes));
            pc::bulk::copy(ring + j % depth * stage_bytes, src + block_of(j) * det::block + j % chunks * rows * 32,
                           static_cast<unsigned>(stage_bytes), bar + j % depth);
        }
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

template <P Q, class R, ending E, int Depth = fx::bulk_depth, std::size_t Rows = fx::bulk_rows<R>>
void launch_copy(const R& r, const typename R::value_type* x, std::size_t n, typename R::result_type* out,
                 cudaStream_t s) {
    using V = det::value_t<Q, typename R::accumulator_type>;
    const std::size_t m = det::block_count(n);
    const auto ws = pc::counted_workspace_for(m * sizeof(V), s, nullptr);
    constexpr auto kernel = bulk_copy_of<Q, R, E, Depth, Rows>;
    constexpr std::size_t shared = fx::warps_per_cta * Depth * Rows * 32 * sizeof(typename R::value_type);
    static const int ctas = [] {
        CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
        int per = 0, sms = 0, device = 0;
        CK(cudaGetDevice(&device));
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kernel, fx::block_threads, shared));
        CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return per * sms;
    }();
    const std::size_t share = fx::bulk_share(m, static_cast<std::size_t>(ctas));
    const unsigned grid = static_cast<unsigned>((m + share - 1) / share);  // as launch_blocks launches the bulk pass
    pc::launch_shared("bulk_copy_of", kernel, grid, fx::block_threads, shared, s, r, x, n,
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
    const auto at = [=](std::size_t k) { return window(pool, pool_n, n, k); };
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
        // The copy with other chunks (Rows rows, Depth of them in flight a warp): less of a
        // warp's block in flight at once, so that the adds of its first chunks overlap the
        // loads of its last (2^22: one block a warp).
        const auto chunks_of = [&](auto depth, auto rows_of_chunk) {
            constexpr int Depth = decltype(depth)::value;
            constexpr std::size_t Rows = decltype(rows_of_chunk)::value;
            rows.push_back({p + "bulk count r" + std::to_string(Rows) + "d" + std::to_string(Depth),
                            [=](std::size_t k) { launch_copy<Q, R, ending::count, Depth, Rows>(r, at(k), n, d_out, s); },
                            false, Q, {}});
        };
        chunks_of(std::integral_constant<int, 2>{}, std::integral_constant<std::size_t, 32>{});
        chunks_of(std::integral_constant<int, 4>{}, std::integral_constant<std::size_t, 16>{});
        chunks_of(std::integral_constant<int, 3>{}, std::integral_constant<std::size_t, 32>{});
        chunks_of(std::integral_constant<int, 1>{}, std::integral_constant<std::size_t, 64>{});
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
    const double fast = median(rows[0].host);
    std::printf("%s sum, n = 2^%.2f (%zu blocks): %s\n", sizeof(T) == 4 ? "float" : "double",
                std::log2(static_cast<double>(n)), det::block_count(n), wrong ? "BITS DIFFER" : "bits as the host's");
    std::printf("  %-18s %10s %10s %10s\n", "", "gpu us", "host us", "fast/this");
    for (const auto& x : rows)
        std::printf("  %-18s %10.2f %10.2f %10.3f\n", x.name.c_str(), x.gpu, median(x.host), fast / median(x.host));
}

} // namespace

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::atoi(argv[1]) : 300;
    study_memory mem = float_pool();
    void* const pool = mem.pool;
    const std::size_t pool_bytes = mem.pool_bytes;
    double* const d_out = mem.d_out;
    const cudaStream_t s = cudaStreamPerThread;
    // With a second argument: "odd", sizes off the powers of two (short last blocks and
    // groups), for the bits; "wide", the float pool with one value of 2^-100 every 4096, so
    // that no block's compensated float lanes all sum exactly (bench/README.md, "exact
    // lanes": the data for which an exact-lanes staged kernel takes the chain).
    const std::string mode = argc > 2 ? argv[2] : "";
    if (mode == "wide") {
        const std::size_t every = 4096, count = pool_bytes / sizeof(float) / every;
        const std::vector<float> tiny(count, 0x1p-100f);
        CK(cudaMemcpy2D(pool, every * sizeof(float), tiny.data(), sizeof(float), sizeof(float), count,
                        cudaMemcpyHostToDevice));
    }
    const std::vector<std::size_t> sizes =
        mode == "odd" ? std::vector<std::size_t>{(std::size_t{1} << 20) + 3 * 4096 + 5, 3 * (std::size_t{1} << 22) + 77,
                                            5 * (std::size_t{1} << 23) + 1, (std::size_t{1} << 26) - 4097}
                 : std::vector<std::size_t>{std::size_t{1} << 20, std::size_t{1} << 22, std::size_t{1} << 24,
                                            std::size_t{1} << 26};
    for (const std::size_t n : sizes)
        study<float>(n, reps, static_cast<const float*>(pool), pool_bytes / sizeof(float),
                     reinterpret_cast<float*>(d_out), s);
    fill_normal<double>(pool, pool_bytes, mem.g);
    for (const std::size_t n : sizes)
        study<double>(n, reps, static_cast<const double*>(pool), pool_bytes / sizeof(double), d_out, s);
    return 0;
}
