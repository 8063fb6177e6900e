// The header-only CUDA API, compiled by nvcc as a user would: reduce_async leaving the
// result in device memory (pool workspace and caller workspace), user operations through
// the same kernels, non-commutative ones in operand order, two-input (zip) sources and
// the transform and multi-result built-ins, each on device memory and on pageable host
// memory against preduce::seq; precision::deterministic and compensated bit for bit against
// the host reference order. Catch2 cases; tests/support/cuda_main.cpp skips them (exit 77)
// where no GPU is usable.
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#include "custom/ops.hpp"
#include "preduce/cuda/compiled.hpp"
#include "preduce/cuda/reduce.cuh"
#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/errors.hpp"
#include "preduce/ops.hpp"
#include "preduce/reducers.hpp"
#include "preduce/seq/reduce.hpp"

namespace {
// Sum of squares in double, the shape of reducer a user writes.
struct sum_of_squares {
    using value_type = float;
    using accumulator_type = double;
    using result_type = double;
    __host__ __device__ static double identity() { return 0.0; }
    __host__ __device__ double lift(float x, std::size_t) const { return double(x) * double(x); }
    __host__ __device__ static double combine(double a, double b) { return a + b; }
    __host__ __device__ double finish(double a) const { return a; }
};

// The order-checking user operation of tests/custom/ops.hpp.
using custom_test::in_order;

// 2x2 matrix product over matrix elements [[s, t], [0, 1]] with s = +-1, t small: every
// entry of every partial product is an integer below 2^24, so floats are exact and any
// operand swap changes the answer.
struct mat2 {
    float a, b, c, d;
};
bool operator==(const mat2& x, const mat2& y) { return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d; }
struct matmul {
    using value_type = mat2;
    __host__ __device__ static mat2 identity() { return {1, 0, 0, 1}; }
    __host__ __device__ static mat2 combine(const mat2& x, const mat2& y) {
        return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c, x.c * y.b + x.d * y.d};
    }
};

// x -> x^2 + 1, a user transform for preduce::transform.
struct square_plus_one {
    __host__ __device__ float operator()(float x) const { return x * x + 1.0f; }
};

std::uint32_t mix(std::size_t i) { return static_cast<std::uint32_t>((i * 2654435761u) ^ (i >> 7)); }

template <class T>
struct on_device {
    T* p = nullptr;
    explicit on_device(const std::vector<T>& h) {
        cudaMalloc(&p, (h.size() + 1) * sizeof(T));
        cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
        cudaDeviceSynchronize();  // the DMA of a pageable copy may outlive cudaMemcpy
    }
    ~on_device() { cudaFree(p); }
};

template <class T>
T to_host(const T* d) {
    T h{};
    cudaMemcpy(&h, d, sizeof(T), cudaMemcpyDeviceToHost);
    return h;
}

bool near(double got, double want, double tol) { return std::fabs(got - want) <= tol; }

// Sizes either side of the layers' edges: a warp, a block, the scalar and vector tiles,
// the single-block limit (2^15), a full one-wave grid of tiles, and several staging chunks.
const std::size_t sizes[] = {0,     1,     2,     3,     31,    32,      33,      255,       256,
                             257,   2047,  2048,  2049,  4095,  4096,    4097,    32767,     32768,
                             32769, 99991, 1 << 20, 2162689, 5000003};

// A non-blocking user stream, for the length of a case.
struct user_stream {
    cudaStream_t s = nullptr;
    user_stream() { REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess); }
    ~user_stream() { cudaStreamDestroy(s); }
    user_stream(const user_stream&) = delete;
    user_stream& operator=(const user_stream&) = delete;
};

// precision::deterministic and compensated: the bits of the host reference order
// (preduce::detail::fixed_order::reduce_serial) on device and pageable memory, through the public
// entry, the compiled library, and the in-place path under grids of 1, 7, 132 and 1000 blocks
// in every form of its block pass.
template <class T>
T fixed_value(std::size_t i) {
    // Mixed signs and magnitudes 2^-12..2^12: every order rounds differently.
    const T base = static_cast<T>(static_cast<int>(mix(i) % 2001) - 1000) / static_cast<T>(997);
    return std::ldexp(base, static_cast<int>(mix(i + 77) % 25) - 12);
}

template <class R>
bool same_bits(const typename R::result_type& a, const typename R::result_type& b) {
    return std::memcmp(&a, &b, sizeof(a)) == 0;
}

template <preduce::precision P, class R>
void fixed_case(const R& r, preduce::source_t<R> host, preduce::source_t<R> device, std::size_t n, const char* what) {
    using Result = typename R::result_type;
    const Result want = preduce::detail::fixed_order::reduce_serial<P>(r, host, n);
    preduce::options o{};
    o.precision = P;
    INFO(what << ", " << preduce::name(P));
    {
        INFO("device");
        CHECK(same_bits<R>(preduce::cuda::reduce_with(device, n, r, o), want));
    }
    {
        INFO("pageable");
        CHECK(same_bits<R>(preduce::cuda::reduce_with(host, n, r, o), want));
    }
    if (n == 0) return;
    Result* d_out = nullptr;
    cudaMalloc(&d_out, sizeof(Result));
    // Every form of the block pass (one lane per thread, the vector lanes where R's elements
    // pack into vectors, the bulk copies on sm_90, a CTA per block), whatever their size would
    // choose.
    // Before each, a reduction of other values through the same workspace: a value the
    // checked launch counted but did not store would then show as wrong bits.
    using preduce::cuda::detail::fixed::block_pass;
    for (block_pass form : {block_pass::one_lane, block_pass::vector, block_pass::bulk})
        for (int grid : {1, 7, 132, 1000}) {
            if (n > 1)
                preduce::cuda::detail::fixed::enqueue_reduce<P>(r, device + 1, n - 1, d_out, cudaStreamPerThread, 7,
                                                                block_pass::one_lane);
            preduce::cuda::detail::fixed::enqueue_reduce<P>(r, device, n, d_out, cudaStreamPerThread, grid, form);
            cudaStreamSynchronize(cudaStreamPerThread);
            INFO("grid " << grid << ", form " << static_cast<int>(form));
            CHECK(same_bits<R>(to_host(d_out), want));
        }
    // A CTA per block (the staged form), in as many waves as n needs up to a group of the
    // tree's values (past that the form falls back to the one-lane form), and its in-launch
    // tree, on the input and on the input one element in; before each, as above, a reduction
    // of other values (the other of the two) through the same workspace.
    const Result shifted = n > 1 ? preduce::detail::fixed_order::reduce_serial<P>(r, host + 1, n - 1) : want;
    for (const std::size_t offset : {std::size_t{0}, std::size_t{1}}) {
        if (n <= offset) continue;
        if (n > 1)
            preduce::cuda::detail::fixed::enqueue_reduce<P>(r, device + (1 - offset), n - (1 - offset), d_out,
                                                            cudaStreamPerThread, 7, block_pass::one_lane);
        preduce::cuda::detail::fixed::enqueue_reduce<P>(r, device + offset, n - offset, d_out, cudaStreamPerThread, 0,
                                                        block_pass::staged);
        cudaStreamSynchronize(cudaStreamPerThread);
        INFO("staged form, " << offset << " element(s) in");
        CHECK(same_bits<R>(to_host(d_out), offset == 0 ? want : shifted));
    }
    // An input one element off its vectors' (and bulk copies') alignment takes the one-lane
    // form, same bits.
    if (n > 1) {
        for (block_pass form : {block_pass::vector, block_pass::bulk}) {
            preduce::cuda::detail::fixed::enqueue_reduce<P>(r, device + 1, n - 1, d_out, cudaStreamPerThread, 132, form);
            cudaStreamSynchronize(cudaStreamPerThread);
            INFO("one element off alignment, form " << static_cast<int>(form));
            CHECK(same_bits<R>(to_host(d_out), shifted));
        }
    }
    cudaFree(d_out);
}

template <preduce::precision P, class T>
void fixed_cases_of(const std::vector<T>& x, const std::vector<T>& y, const T* dx, const T* dy, std::size_t n) {
    fixed_case<P>(preduce::sum_reducer<T>{}, x.data(), dx, n, "sum");
    fixed_case<P>(preduce::sumsq_reducer<T>{}, x.data(), dx, n, "sumsq");
    fixed_case<P>(preduce::asum_reducer<T>{}, x.data(), dx, n, "asum");
    fixed_case<P>(preduce::dot_reducer<T>{}, preduce::zip_source<T, T>{x.data(), y.data()},
                  preduce::zip_source<T, T>{dx, dy}, n, "dot");
    // One side device, one pageable: staged by the host path, same bits.
    const preduce::dot_reducer<T> dot{};
    preduce::options o{};
    o.precision = P;
    {
        INFO("dot mixed, " << preduce::name(P));
        CHECK(same_bits<preduce::dot_reducer<T>>(
            preduce::cuda::reduce_with(preduce::zip_source<T, T>{dx, y.data()}, n, dot, o),
            preduce::detail::fixed_order::reduce_serial<P>(dot, preduce::zip_source<T, T>{x.data(), y.data()}, n)));
    }
    if constexpr (std::is_same_v<T, float>) {
        fixed_case<P>(preduce::wide_sum_reducer<T>{}, x.data(), dx, n, "wide_sum");
        // The compiled library's instance (what the front end calls).
        const preduce::sum_reducer<float> sum{};
        INFO("compiled sum, " << preduce::name(P));
        CHECK(same_bits<preduce::sum_reducer<float>>(preduce::cuda::compiled::run(x.data(), n, sum, o),
                                                     preduce::detail::fixed_order::reduce_serial<P>(sum, x.data(), n)));
    }
}
// The block tree alone, through fixed_tree's launches (what host staging and several GPUs
// use): fixed_order::block_tree's bits for every count up to 67, around every power of two from a
// warp's span to several of its groups, and at three groups and a part.
template <preduce::precision P, class T>
void tree_case() {
    namespace fixed_order = preduce::detail::fixed_order;
    namespace fixed = preduce::cuda::detail::fixed;
    using V = fixed_order::value_t<P, T>;
    constexpr std::size_t G = fixed::tree_group<V>;
    std::vector<std::size_t> counts;
    for (std::size_t m = 1; m <= 67; ++m) counts.push_back(m);
    for (std::size_t p = 128; p <= 4 * G; p *= 2)
        for (std::size_t m : {p - 1, p, p + 1, p + 31}) counts.push_back(m);
    counts.push_back(3 * G + 4099);
    const std::size_t most = *std::max_element(counts.begin(), counts.end());
    // Values with a nonzero compensation part, of mixed signs and magnitudes.
    std::vector<V> values(most);
    for (std::size_t i = 0; i < most; ++i) {
        values[i] = fixed_order::zero<P, T>(T{0});
        fixed_order::add<P, T>(values[i], fixed_value<T>(i));
        fixed_order::add<P, T>(values[i], fixed_value<T>(i + 500009));
    }
    V* d_values = nullptr;
    T* d_out = nullptr;
    REQUIRE(cudaMalloc(&d_values, (most + fixed::tree_scratch<V>(most)) * sizeof(V)) == cudaSuccess);
    REQUIRE(cudaMalloc(&d_out, sizeof(T)) == cudaSuccess);
    const preduce::sum_reducer<T> r{};
    for (std::size_t m : counts) {
        cudaMemcpy(d_values, values.data(), m * sizeof(V), cudaMemcpyHostToDevice);
        fixed::enqueue_tree<P>(r, d_values, m, d_values + m, d_out, cudaStreamPerThread);
        cudaStreamSynchronize(cudaStreamPerThread);
        std::vector<V> host(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(m));
        const T want = r.finish(fixed_order::result<P, T>(fixed_order::block_tree<P, T>(host.data(), m, T{0})));
        INFO(preduce::name(P) << ", count " << m);
        CHECK(same_bits<preduce::sum_reducer<T>>(to_host(d_out), want));
    }
    cudaFree(d_out);
    cudaFree(d_values);
}

} // namespace

TEST_CASE("reduce_async: argmax with the pool workspace and wide_sum with the caller's, on a user stream, and "
          "a user reducer through reduce",
          "[async]") {
    const user_stream stream;
    const cudaStream_t s = stream.s;
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{5000}, std::size_t{1} << 20, (std::size_t{1} << 22) + 3}) {
        CAPTURE(n);
        std::vector<int> h(n);
        for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<int>((i * 2654435761u) % 2001) - 1000;
        int* d = nullptr;
        cudaMalloc(&d, (n + 1) * sizeof(int));
        cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
        // A copy from pageable memory may return before its DMA lands, on the legacy stream,
        // which the non-blocking stream s does not wait for.
        cudaDeviceSynchronize();
        preduce::argmax_reducer<int>::result_type* d_arg = nullptr;
        long long* d_sum = nullptr;
        cudaMalloc(&d_arg, sizeof(*d_arg));
        cudaMalloc(&d_sum, sizeof(*d_sum));

        const preduce::argmax_reducer<int> am{};
        const preduce::wide_sum_reducer<int> ws{};
        preduce::cuda::reduce_async(d, n, am, d_arg, s);  // pool workspace on a user stream
        const std::size_t bytes = preduce::cuda::workspace_bytes<preduce::wide_sum_reducer<int>>(n);
        void* scratch = nullptr;
        cudaMalloc(&scratch, bytes + 1);
        preduce::cuda::reduce_async(d, n, ws, reinterpret_cast<std::int64_t*>(d_sum), scratch, bytes, s);
        cudaStreamSynchronize(s);
        CHECK(to_host(d_arg) == preduce::seq::reduce(h.data(), n, am));
        CHECK(to_host(d_sum) == preduce::seq::reduce(h.data(), n, ws));

        std::vector<float> f(n);
        for (std::size_t i = 0; i < n; ++i) f[i] = static_cast<float>(h[i]) / 1000.0f;
        const double got = preduce::cuda::reduce(f.data(), n, sum_of_squares{});
        const double want = preduce::seq::reduce(f.data(), n, sum_of_squares{});
        CHECK(std::abs(got - want) <= 1e-12 * (want + 1.0) * static_cast<double>(n + 1));

        cudaFree(scratch);
        cudaFree(d_arg);
        cudaFree(d_sum);
        cudaFree(d);
    }
}

TEST_CASE("reduce_async: a caller workspace too small is refused, not overrun", "[async]") {
    const user_stream stream;
    int* d = nullptr;
    cudaMalloc(&d, sizeof(int) << 20);
    CHECK_THROWS_AS(preduce::cuda::reduce_async(d, std::size_t{1} << 20, preduce::sum_reducer<int>{}, d, d, 1, stream.s),
                    preduce::invalid_argument);
    cudaFree(d);
}

TEST_CASE("user operations through the kernels: non-commutative ones in operand order, on device and pageable memory",
          "[ordered]") {
    for (std::size_t n : sizes) {
        CAPTURE(n);
        std::vector<float> f(n);
        std::vector<mat2> m(n);
        for (std::size_t i = 0; i < n; ++i) {
            f[i] = static_cast<float>(mix(i) % 17);
            m[i] = {(mix(i) & 1) ? 1.0f : -1.0f, static_cast<float>(static_cast<int>(mix(i + 1) % 5) - 2), 0.0f, 1.0f};
        }
        const on_device<float> df(f);
        const on_device<mat2> dm(m);
        for (int where = 0; where < 2; ++where) {
            INFO((where == 0 ? "device" : "pageable"));
            const float* pf = where == 0 ? df.p : f.data();
            const mat2* pm = where == 0 ? dm.p : m.data();
            const auto seen = preduce::cuda::reduce(pf, n, in_order{});
            CHECK(seen.state == (n == 0 ? 0 : 1));
            if (n != 0) {
                CHECK(seen.first == 0);
                CHECK(seen.last == n - 1);
            }
            CHECK(preduce::cuda::reduce(pm, n, matmul{}) == preduce::seq::reduce(m.data(), n, matmul{}));
        }
    }
}

TEST_CASE("dot, minmax, moments, sumsq, fused and transform agree with seq on device, pageable and mixed memory, "
          "and so do the compiled instances and reduce_async on a zip",
          "[builtins]") {
    for (std::size_t n : sizes) {
        CAPTURE(n);
        std::vector<float> x(n), y(n);
        std::vector<std::int32_t> i(n), j(n);
        double abs_dot = 0.0;
        for (std::size_t k = 0; k < n; ++k) {
            x[k] = static_cast<float>(static_cast<int>(mix(k) % 2001) - 1000) / 997.0f;
            y[k] = static_cast<float>(static_cast<int>(mix(k + 12345) % 2001) - 1000) / 991.0f;
            i[k] = static_cast<std::int32_t>(mix(k) - 2147483648u);  // wraps in the dot product
            j[k] = static_cast<std::int32_t>(mix(3 * k + 1) % 1000) - 500;
            abs_dot += std::fabs(double(x[k]) * double(y[k]));
        }
        const on_device<float> dx(x), dy(y);
        const on_device<std::int32_t> di(i), dj(j);
        const double u = 0x1p-24, tol = 2.0 * static_cast<double>(n) * u * abs_dot;
        // device/device, pageable/pageable, and one of each
        for (int where = 0; where < 3; ++where) {
            INFO((where == 0 ? "device" : where == 1 ? "pageable" : "mixed"));
            const float* px = where == 1 ? x.data() : dx.p;
            const float* py = where == 0 ? dy.p : y.data();
            const std::int32_t* pi = where == 1 ? i.data() : di.p;
            const std::int32_t* pj = where == 0 ? dj.p : j.data();
            CHECK(preduce::cuda::reduce(pi, pj, n, preduce::dot) == preduce::seq::reduce(i.data(), j.data(), n, preduce::dot));
            {
                const double got = preduce::cuda::reduce(px, py, n, preduce::dot);
                const double want = preduce::seq::reduce(x.data(), y.data(), n, preduce::dot);
                CAPTURE(got, want, tol);
                CHECK(near(got, want, tol));
            }
            if (where == 2) continue;
            CHECK(preduce::cuda::reduce(px, n, preduce::minmax) == preduce::seq::reduce(x.data(), n, preduce::minmax));
            CHECK(preduce::cuda::reduce(pi, n, preduce::minmax) == preduce::seq::reduce(i.data(), n, preduce::minmax));
            const auto got = preduce::cuda::reduce(px, n, preduce::moments);
            const auto want = preduce::seq::reduce(x.data(), n, preduce::moments);
            CHECK(got.count == n);
            if (n == 0) {
                CHECK(std::isnan(got.mean));
            } else {
                CAPTURE(got.mean, want.mean);
                CHECK(near(got.mean, want.mean, 1e-11));
            }
            if (n >= 2) {
                CAPTURE(got.variance(), want.variance());
                CHECK(near(got.variance(), want.variance(), 1e-10 * want.variance()));
            }
            const double sq = preduce::cuda::reduce(px, n, preduce::sumsq);
            {
                const double want_sq = preduce::seq::reduce(x.data(), n, preduce::sumsq);
                CAPTURE(sq, want_sq);
                CHECK(near(sq, want_sq, 2.0 * n * u * sq));
            }
            const auto [s, c] = preduce::cuda::reduce(pj, n, preduce::fused(preduce::sum, preduce::count_if(preduce::greater(0))));
            const auto [ws, wc] = preduce::seq::reduce(j.data(), n, preduce::fused(preduce::sum, preduce::count_if(preduce::greater(0))));
            CHECK(s == ws);
            CHECK(c == wc);
            const float t = preduce::cuda::reduce(px, n, preduce::transform(square_plus_one{}, preduce::sum));
            const float want_t = preduce::seq::reduce(x.data(), n, preduce::transform(square_plus_one{}, preduce::sum));
            CAPTURE(t, want_t);
            CHECK(near(t, want_t, 4.0 * n * u * (sq + n)));
        }
        // The compiled library's instances (what the front end calls) and reduce_async on a zip.
        const preduce::options none{};
        {
            INFO("compiled dot");
            CHECK(preduce::cuda::compiled::run(preduce::zip_source<std::int32_t, std::int32_t>{di.p, dj.p}, n,
                                               preduce::dot_reducer<std::int32_t>{}, none) ==
                  preduce::seq::reduce(i.data(), j.data(), n, preduce::dot));
        }
        {
            INFO("compiled minmax");
            CHECK(preduce::cuda::compiled::run(x.data(), n, preduce::minmax_reducer<float>{}, none) ==
                  preduce::seq::reduce(x.data(), n, preduce::minmax_reducer<float>{}));
        }
        std::int32_t* d_out = nullptr;
        cudaMalloc(&d_out, sizeof(std::int32_t));
        preduce::cuda::reduce_async(preduce::zip_source<std::int32_t, std::int32_t>{di.p, dj.p}, n,
                                    preduce::dot_reducer<std::int32_t>{}, d_out);
        cudaStreamSynchronize(cudaStreamPerThread);
        {
            INFO("async dot");
            CHECK(to_host(d_out) == preduce::seq::reduce(i.data(), j.data(), n, preduce::dot));
        }
        cudaFree(d_out);
    }
}

TEMPLATE_TEST_CASE("precision::deterministic and compensated: the host reference order's bits on device and "
                   "pageable memory, through the compiled library and under every grid",
                   "[fixed]", float, double) {
    using T = TestType;
    // Up to 4096, one block: a single CTA of one warp per quarter of the block (1024 values)
    // that holds values (600, 1500, 3000 and 4095 take 1, 2, 3 and 4 warps). The last one has
    // 8195 block values: 3 to 9 groups of the in-launch block tree (fold_group values each,
    // the last one short) in the one-lane and vector forms; in the bulk form, power-of-two
    // shares of 16 to 2048 blocks that each CTA folds itself on 1000, 132 and 7 CTAs (on 7
    // for compensated pairs, and on 1, a share outgrows a CTA's fold and the groups return);
    // and more than one group of fixed_tree's launches, which the pageable path's staging
    // uses, for every value type (8192 floats, 4096 doubles, 2048 compensated pairs).
    const std::size_t fixed_sizes[] = {0,    1,    31,   32,   33,     600,     1500,          2049,    3000,
                                       4095, 4096, 4097, 8191, 8193,   100003,  1 << 20,       (1 << 22) + 5,
                                       3000017, (1 << 25) + 3 * 4096 + 7};
    for (std::size_t n : fixed_sizes) {
        CAPTURE(n);
        std::vector<T> x(n), y(n);
        for (std::size_t i = 0; i < n; ++i) {
            x[i] = fixed_value<T>(i);
            y[i] = fixed_value<T>(i + 1000003);
        }
        const on_device<T> dx(x), dy(y);
        fixed_cases_of<preduce::precision::deterministic>(x, y, dx.p, dy.p, n);
        fixed_cases_of<preduce::precision::compensated>(x, y, dx.p, dy.p, n);
    }
}

// The bulk pass needs its kernel opted into more shared memory than a launch gets by default,
// and that opt-in belongs to a host stub: every .cu file that instantiates the kernel has its
// own. Here this file's stub is opted in first, then the compiled library launches its own
// (device data of n values, whose block count takes the bulk pass), then this file's launches.
TEMPLATE_TEST_CASE("the bulk pass opts in the kernel it launches, whichever file instantiated it", "[fixed]", float,
                   double) {
    using T = TestType;
    using R = preduce::sum_reducer<T>;
    namespace fixed = preduce::cuda::detail::fixed;
    constexpr auto P = preduce::precision::deterministic;
    // 0 where this GPU runs no sm_90 code: then every launch below takes the one-lane form.
    const int wave =
        fixed::bulk_wave(reinterpret_cast<const void*>(fixed::fixed_blocks_bulk<P, R>), fixed::bulk_shared_bytes<R>,
                         preduce::cuda::detail::current_device());
    INFO("bulk pass CTAs per wave: " << wave);
    const std::size_t n = (std::size_t{1} << 24) + 7;
    std::vector<T> x(n);
    for (std::size_t i = 0; i < n; ++i) x[i] = fixed_value<T>(i);
    const on_device<T> dx(x);
    const T want = preduce::detail::fixed_order::reduce_serial<P>(R{}, x.data(), n);
    preduce::options o{};
    o.precision = P;
    CHECK(same_bits<R>(preduce::cuda::reduce_with(static_cast<const T*>(dx.p), n, R{}, o), want));
    T* d_out = nullptr;
    REQUIRE(cudaMalloc(&d_out, sizeof(T)) == cudaSuccess);
    fixed::enqueue_reduce<P>(R{}, static_cast<const T*>(dx.p), n, d_out, cudaStreamPerThread, 0, fixed::block_pass::bulk);
    REQUIRE(cudaStreamSynchronize(cudaStreamPerThread) == cudaSuccess);
    CHECK(same_bits<R>(to_host(d_out), want));
    cudaFree(d_out);
}

TEMPLATE_TEST_CASE("the block tree's launches give fixed_order::block_tree's bits for every count around its edges", "[fixed]",
                   float, double) {
    tree_case<preduce::precision::deterministic, TestType>();
    tree_case<preduce::precision::compensated, TestType>();
}

TEMPLATE_TEST_CASE("operations outside the fixed order refuse precision::deterministic and compensated", "[fixed]",
                   float, double) {
    using T = TestType;
    for (preduce::precision p : {preduce::precision::deterministic, preduce::precision::compensated}) {
        INFO(preduce::name(p));
        preduce::options o{};
        o.precision = p;
        const std::vector<T> x(100, T(1));
        CHECK_THROWS_AS((void)preduce::cuda::reduce(x.data(), x.size(), preduce::moments, o), preduce::invalid_argument);
        CHECK_THROWS_AS((void)preduce::cuda::compiled::run(x.data(), x.size(), preduce::moments_reducer<T>{}, o),
                        preduce::invalid_argument);
    }
}

