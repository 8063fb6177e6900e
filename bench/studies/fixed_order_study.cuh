#pragma once
// What the fixed-order studies (fixed_order_tail.cu, fixed_order_probes.cu) share: their
// names for the library's namespaces, a check on CUDA calls, their input, and the library's
// staged kernel's adds of one block, which their copies of that kernel run.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <type_traits>
#include <vector>

#include "preduce/cuda/reduce.cuh"

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

// Fills the device buffer pool (bytes long) with normal(0, 1) values of T drawn from g.
template <class T>
void fill_normal(void* pool, std::size_t bytes, std::mt19937_64& g) {
    std::vector<T> h(bytes / sizeof(T));
    std::normal_distribution<T> d(T(0), T(1));
    for (auto& v : h) v = d(g);
    CK(cudaMemcpy(pool, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
}

// The studies' memory: a 1 GiB device pool of normal(0, 1) floats (seed 3; g goes on for a
// refill with doubles) and a device slot for a result of either type.
struct study_memory {
    std::size_t pool_bytes = std::size_t{1} << 30;
    void* pool = nullptr;
    double* d_out = nullptr;
    std::mt19937_64 g{3};
};
inline study_memory float_pool() {
    study_memory m;
    CK(cudaMalloc(&m.pool, m.pool_bytes));
    CK(cudaMalloc(&m.d_out, sizeof(double)));
    fill_normal<float>(m.pool, m.pool_bytes, m.g);
    return m;
}

// Window k of n elements of a pool of pool_n: windows rotate through the pool, so that no
// call reads from L2 what the last one left there, and start 16-byte aligned (the bulk
// copies need them).
template <class T>
const T* window(const T* pool, std::size_t pool_n, std::size_t n, std::size_t k) {
    return pool + (k * (n + 4096 * 3)) % (pool_n - n - 4096) / 16 * 16;
}

// The median of v (the upper middle one of an even count; -1 where v is empty, as the
// studies' tables print a phase no CTA stamped).
inline double median(std::vector<double> v) {
    if (v.empty()) return -1.0;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
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
    for (unsigned w = 1; w < fx::staged_warps; ++w) {
        pc::named_sync(w, 64);
        S y[rows];
#pragma unroll
        for (unsigned u = 0; u < rows; ++u) y[u] = stage[(w - 1) * quarter + lane + 32 * u];
#pragma unroll
        for (unsigned u = 0; u < rows; ++u) det::add<Q, A>(acc, y[u]);  // S: A, or the lanes' wide_t
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

} // namespace
