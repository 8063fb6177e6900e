// What only the CUDA backend has: running out of device memory, user streams (several at
// once, from several host threads), pointers that are not what they claim (freed, device
// memory given to a host backend), and inputs past 2^31 and 2^32 elements (64-bit sizes
// and indices all the way through the kernels, for data in device memory and for host
// data streamed in chunks, and for segments: one longer than 2^32, more than 2^31 of them).
#include <catch2/catch.hpp>
#include <cuda_runtime_api.h>

#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <latch>
#include <mutex>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "preduce/cuda/runtime/memory.hpp"
#include "preduce/preduce.hpp"
#include "oracle/compare.hpp"
#include "support/data.hpp"

using namespace preduce;

namespace {
constexpr std::uint32_t fill = 0x01010101u;  // every byte 0x01

struct device_array {
    std::int32_t* p = nullptr;
    explicit device_array(std::size_t n) {
        REQUIRE(cudaMalloc(reinterpret_cast<void**>(&p), n * sizeof(std::int32_t)) == cudaSuccess);
        REQUIRE(cudaMemset(p, 0x01, n * sizeof(std::int32_t)) == cudaSuccess);
    }
    ~device_array() { cudaFree(p); }
    void set(std::size_t i, std::int32_t v) { REQUIRE(cudaMemcpy(p + i, &v, sizeof v, cudaMemcpyHostToDevice) == cudaSuccess); }
};

void check_huge(const std::int32_t* data, std::size_t n, std::size_t marked_hi, std::size_t marked_lo) {
    INFO("n = " << n);
    // Two's-complement wrap of n * fill, adjusted for the two marked elements.
    const std::uint64_t expected_wrapped = (static_cast<std::uint64_t>(n - 2) * fill + 0x7fffffffu + 0x80000000u);
    CHECK(reduce(backend::cuda, data, n, sum) == static_cast<std::int32_t>(static_cast<std::uint32_t>(expected_wrapped)));
    CHECK(reduce(backend::cuda, data, n, wide_sum) ==
          static_cast<std::int64_t>(n - 2) * fill + 0x7fffffffLL - 0x80000000LL);
    const auto hi = reduce(backend::cuda, data, n, argmax);
    CHECK(hi.value == 0x7fffffff);
    CHECK(hi.index == marked_hi);
    const auto lo = reduce(backend::cuda, data, n, argmin);
    CHECK(lo.value == static_cast<std::int32_t>(0x80000000u));
    CHECK(lo.index == marked_lo);
    CHECK(reduce(backend::cuda, data, n, count_if(equal(static_cast<std::int32_t>(fill)))) == n - 2);
}
} // namespace

// Runs in a fresh process (ctest runs each case as its own process), whose workspace pool
// and cached workspaces are empty: every path below must then allocate device memory, and
// find none.
TEST_CASE("out of device memory is out_of_memory on every path, and the next call works", "[errors]") {
    std::vector<float> v(std::size_t{1} << 24, 0.5f);  // host data: staging needs fresh device buffers
    const float want = 0.5f * static_cast<float>(v.size());
    // Device-resident input and a user stream, made while memory is plentiful.
    float* d = nullptr;
    REQUIRE(cudaMalloc(reinterpret_cast<void**>(&d), v.size() * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMemcpy(d, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    cudaStream_t s = nullptr;
    REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    // Take every byte, down to allocations smaller than the smallest workspace (64 KiB),
    // which small cudaMallocs could otherwise still carve out of partly used pages.
    std::vector<void*> hogs;
    for (std::size_t chunk = std::size_t{1} << 30; chunk >= (std::size_t{4} << 10); chunk /= 2) {
        void* p = nullptr;
        while (cudaMalloc(&p, chunk) == cudaSuccess) hogs.push_back(p);
        cudaGetLastError();
    }
    INFO("held " << hogs.size() << " allocations");
    CHECK_THROWS_AS(reduce(backend::cuda, v, sum), preduce::out_of_memory);                     // host data, staged
    CHECK_THROWS_AS(reduce(backend::cuda, d, v.size(), sum), preduce::out_of_memory);           // device data, two-pass
    CHECK_THROWS_AS(reduce(backend::cuda, d, 1000, argmax), preduce::out_of_memory);            // device data, one block
    CHECK_THROWS_AS(reduce(backend::cuda, d, v.size(), sum, {.stream = s}), preduce::out_of_memory);  // pool workspace
    CHECK_THROWS_AS(reduce(backend::cuda, d, v.size(), sum, {.precision = precision::deterministic}),
                    preduce::out_of_memory);                                                   // fixed order
    CHECK_THROWS_AS(reduce(backend::cuda, d, d, v.size(), dot), preduce::out_of_memory);        // two inputs
    CHECK_THROWS_WITH(reduce(backend::cuda, d, v.size(), sum), Catch::Contains("free device memory"));
    // preduce's failed allocations are reported by the exceptions, not left in the
    // runtime's last-error slot for the application to find later.
    CHECK(cudaPeekAtLastError() == cudaSuccess);
    for (void* p : hogs) cudaFree(p);
    // Every path works again, and nothing failed half-way left the stream or device broken.
    CHECK(reduce(backend::cuda, v, sum) == want);
    CHECK(reduce(backend::cuda, d, v.size(), sum) == want);
    CHECK(reduce(backend::cuda, d, 1000, argmax).index == 0u);
    CHECK(reduce(backend::cuda, d, v.size(), sum, {.stream = s}) == want);
    CHECK(reduce(backend::cuda, d, v.size(), sum, {.precision = precision::deterministic}) ==
          reduce(backend::seq, v, sum, {.precision = precision::deterministic}));
    CHECK(reduce(backend::cuda, d, d, v.size(), dot) == 0.25f * static_cast<float>(v.size()));
    CHECK(cudaStreamSynchronize(s) == cudaSuccess);
    CHECK(cudaGetLastError() == cudaSuccess);
    cudaStreamDestroy(s);
    cudaFree(d);
}

TEST_CASE("an error the application left pending is still pending after preduce's calls", "[errors]") {
    std::vector<float> v(100000, 0.25f);
    float* d = nullptr;
    REQUIRE(cudaMalloc(reinterpret_cast<void**>(&d), v.size() * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMemcpy(d, v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(cudaGetLastError() == cudaSuccess);
    // The application's own failure, not sticky: an allocation no GPU can satisfy.
    void* huge = nullptr;
    REQUIRE(cudaMalloc(&huge, std::size_t{1} << 60) == cudaErrorMemoryAllocation);
    REQUIRE(cudaPeekAtLastError() == cudaErrorMemoryAllocation);
    const float want = 0.25f * static_cast<float>(v.size());
    // Every path of the backend, and the questions the front end asks it.
    CHECK(is_usable(backend::cuda));
    CHECK(describe(backend::cuda).find("cuda(") == 0);
    CHECK(reduce(backend::cuda, v, sum) == want);                                   // host data, staged
    CHECK(reduce(backend::cuda, d, v.size(), sum) == want);                         // device data, two-pass
    CHECK(reduce(backend::cuda, d, 1000, preduce::max) == 0.25f);  // device data, one block
    CHECK(reduce(backend::cuda, d, d, v.size(), dot) == 0.0625f * static_cast<float>(v.size()));
    CHECK(reduce(backend::cuda, d, v.size(), sum, {.precision = precision::deterministic}) ==
          reduce(backend::seq, v, sum, {.precision = precision::deterministic}));
    CHECK(reduce(backend::cuda, v, sum, {.precision = precision::compensated}) == want);
    // A call preduce refuses (a freed pointer) leaves it alone too.
    float* freed = nullptr;
    REQUIRE(cudaMalloc(reinterpret_cast<void**>(&freed), 4096) == cudaSuccess);
    REQUIRE(cudaFree(freed) == cudaSuccess);
    CHECK_THROWS_AS(reduce(backend::cuda, freed, 1000, sum), preduce::invalid_argument);
    CHECK(cudaGetLastError() == cudaErrorMemoryAllocation);  // still the application's, and only now read
    CHECK(cudaGetLastError() == cudaSuccess);
    cudaFree(d);
}

TEST_CASE("options::stream runs the reduction on the caller's stream", "[stream]") {
    cudaStream_t s = nullptr;
    REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
    std::vector<std::int32_t> v(3'000'000);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::int32_t>(i % 1000) - 500;
    std::int32_t* d = nullptr;
    REQUIRE(cudaMalloc(reinterpret_cast<void**>(&d), v.size() * sizeof(std::int32_t)) == cudaSuccess);
    REQUIRE(cudaMemcpyAsync(d, v.data(), v.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice, s) == cudaSuccess);
    const options on_stream{.stream = s};
    // Stream order alone makes the copy visible to the reduction: no synchronisation here.
    CHECK(reduce(backend::cuda, d, v.size(), wide_sum, on_stream) == reduce(backend::seq, v, wide_sum));
    CHECK(reduce(backend::cuda, v, argmin, on_stream) == reduce(backend::seq, v, argmin));  // host data too
    cudaFree(d);
    cudaStreamDestroy(s);
}

// The host waits for the result's words to land in its pinned slot, marked before each launch
// (runtime/memory.hpp); a result whose word equals the mark must still come back, through the
// stream's synchronization, and the calls after it must still wait for their own results.
TEST_CASE("a result whose words equal the host's unwritten mark still comes back, and the next calls too",
          "[stream]") {
    const auto mark = static_cast<std::int32_t>(preduce::cuda::detail::unwritten_word);
    for (const std::size_t n : {std::size_t{1000}, std::size_t{1} << 20}) {  // one block, a grid
        CAPTURE(n);
        std::vector<std::int32_t> v(n);
        for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<std::int32_t>(i % 977) - 400;
        v[n / 3] = mark;
        device_array d(n);
        REQUIRE(cudaMemcpy(d.p, v.data(), n * sizeof(std::int32_t), cudaMemcpyHostToDevice) == cudaSuccess);
        CHECK(reduce(backend::cuda, d.p, n, preduce::max) == mark);
        const auto at = reduce(backend::cuda, d.p, n, argmax);
        CHECK(at.value == mark);
        CHECK(at.index == n / 3);
        CHECK(reduce(backend::cuda, d.p, n, preduce::min) == -400);
        d.set(n / 3, 0);
        CHECK(reduce(backend::cuda, d.p, n, preduce::max) == 576);
        CHECK(reduce(backend::cuda, d.p, n, wide_sum) == reduce(backend::seq, v, wide_sum) - mark);
    }
}

namespace {
// A reduction whose answer seq gave before the threads started.
struct stream_job {
    const char* what;
    std::int64_t (*run)(const std::int32_t* data, std::size_t n, const options& o);
};

// Integer ops: exact, so any lost, doubled or misordered work shows. argmin's index and
// count_if come back as int64 for one comparison path.
const stream_job stream_jobs[] = {
    {"wide_sum", [](const std::int32_t* x, std::size_t n, const options& o) {
         return reduce(backend::cuda, x, n, wide_sum, o); }},
    {"argmin index", [](const std::int32_t* x, std::size_t n, const options& o) {
         return static_cast<std::int64_t>(reduce(backend::cuda, x, n, argmin, o).index); }},
    {"count_if > 0", [](const std::int32_t* x, std::size_t n, const options& o) {
         return static_cast<std::int64_t>(reduce(backend::cuda, x, n, count_if(greater(0)), o)); }},
    {"max", [](const std::int32_t* x, std::size_t n, const options& o) {
         return static_cast<std::int64_t>(reduce(backend::cuda, x, n, preduce::max, o)); }},
    {"deterministic sum", [](const std::int32_t* x, std::size_t n, const options& o) {
         options d = o;
         d.precision = precision::deterministic;
         return static_cast<std::int64_t>(reduce(backend::cuda, x, n, sum, d)); }},
};

std::int64_t seq_answer(std::size_t job, const std::int32_t* x, std::size_t n) {
    switch (job) {
    case 0: return reduce(backend::seq, x, n, wide_sum);
    case 1: return static_cast<std::int64_t>(reduce(backend::seq, x, n, argmin).index);
    case 2: return static_cast<std::int64_t>(reduce(backend::seq, x, n, count_if(greater(0))));
    case 3: return reduce(backend::seq, x, n, preduce::max);
    default: return reduce(backend::seq, x, n, sum);
    }
}
} // namespace

TEST_CASE("four user streams, the per-thread and the legacy default stream, from six host threads at once",
          "[stream][concurrency]") {
    // Shared inputs, read by every thread: one in device memory, one pageable (staged through
    // each thread's pinned chunks). Sizes take the single-block, two-pass and staged paths.
    const std::vector<std::size_t> sizes = {1, 1000, 32769, 1000003, 3000017};
    const std::size_t largest = sizes.back();
    const auto host = preduce::test::random_values<std::int32_t>(largest, 31);
    std::int32_t* dev = nullptr;
    REQUIRE(cudaMalloc(reinterpret_cast<void**>(&dev), largest * sizeof(std::int32_t)) == cudaSuccess);
    REQUIRE(cudaMemcpy(dev, host.data(), largest * sizeof(std::int32_t), cudaMemcpyHostToDevice) == cudaSuccess);
    constexpr std::size_t job_count = sizeof(stream_jobs) / sizeof(stream_jobs[0]);
    std::vector<std::int64_t> want(job_count * sizes.size());
    for (std::size_t j = 0; j < job_count; ++j)
        for (std::size_t k = 0; k < sizes.size(); ++k) want[j * sizes.size() + k] = seq_answer(j, host.data(), sizes[k]);

    // Four threads with a stream each; one on the per-thread default stream (stream unset);
    // one on the legacy default stream, which synchronises with blocking streams.
    constexpr int user_streams = 4, threads = user_streams + 2, calls = 200;
    std::vector<cudaStream_t> streams(user_streams);
    for (auto& st : streams) REQUIRE(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking) == cudaSuccess);
    std::atomic<int> wrong{0};
    std::mutex m;
    std::vector<std::string> failures;
    std::latch start(threads);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            const cudaStream_t mine = t < user_streams ? streams[t] : t == user_streams ? cudaStream_t{} : cudaStreamLegacy;
            // The stream this thread's own copies must go to for stream order to cover them:
            // with options::stream unset, the library runs on the per-thread default stream.
            const cudaStream_t copies = t == user_streams ? cudaStreamPerThread : mine;
            const options o{.stream = static_cast<void*>(mine)};
            // A private device buffer, rewritten before each of its reductions on the same
            // stream, without synchronising: only stream order makes the new contents visible.
            std::int32_t* own = nullptr;
            std::int32_t* staging = nullptr;  // pinned, so that the copy is truly asynchronous
            const std::size_t own_n = 100003;
            bool ok = cudaMalloc(reinterpret_cast<void**>(&own), own_n * sizeof(std::int32_t)) == cudaSuccess &&
                      cudaMallocHost(reinterpret_cast<void**>(&staging), own_n * sizeof(std::int32_t)) == cudaSuccess;
            std::mt19937_64 rng(preduce::test::seed() ^ static_cast<std::uint64_t>(t + 1));
            start.arrive_and_wait();
            for (int c = 0; ok && c < calls; ++c) {
                std::string error;
                try {
                    const std::size_t j = rng() % job_count, k = rng() % sizes.size();
                    const bool on_device = rng() % 2 == 0;
                    const std::int64_t got = stream_jobs[j].run(on_device ? dev : host.data(), sizes[k], o);
                    if (got != want[j * sizes.size() + k])
                        error = std::string(stream_jobs[j].what) + " n=" + std::to_string(sizes[k]) +
                                (on_device ? " (device)" : " (host)") + ": got " + std::to_string(got) + ", want " +
                                std::to_string(want[j * sizes.size() + k]);
                    // The previous reduction on `copies` has finished (reduce() waited for
                    // it), so the pinned staging buffer may be refilled.
                    const auto fill = static_cast<std::int32_t>(c % 7) - 3;
                    for (std::size_t i = 0; i < own_n; ++i) staging[i] = fill;
                    if (cudaMemcpyAsync(own, staging, own_n * sizeof(std::int32_t), cudaMemcpyHostToDevice, copies) !=
                        cudaSuccess)
                        error += " cudaMemcpyAsync failed";
                    const std::int64_t own_sum = reduce(backend::cuda, own, own_n, wide_sum, o);
                    if (own_sum != static_cast<std::int64_t>(own_n) * fill)
                        error += " private buffer after an async copy: got " + std::to_string(own_sum) + ", want " +
                                 std::to_string(static_cast<std::int64_t>(own_n) * fill);
                } catch (const std::exception& e) {
                    error = std::string("threw: ") + e.what();
                }
                if (error.empty()) continue;
                ++wrong;
                const std::lock_guard<std::mutex> lock(m);
                if (failures.size() < 20)
                    failures.push_back("thread " + std::to_string(t) + " call " + std::to_string(c) + ": " + error);
            }
            if (!ok) {
                ++wrong;
                const std::lock_guard<std::mutex> lock(m);
                failures.push_back("thread " + std::to_string(t) + ": could not allocate its buffers");
            }
            cudaFreeHost(staging);
            cudaFree(own);
        });
    for (auto& th : pool) th.join();
    std::string report;
    for (const auto& f : failures) report += "\n  " + f;
    INFO("seed " << preduce::test::seed() << report);
    CHECK(wrong == 0);
    for (auto st : streams) CHECK(cudaStreamDestroy(st) == cudaSuccess);
    CHECK(cudaGetLastError() == cudaSuccess);
    cudaFree(dev);
}

// The backends that run on the GPU and read device memory in place: cuda, and kokkos where
// the Kokkos it was built against runs on CUDA.
namespace {
bool reads_device_memory(backend b) {
#if defined(PREDUCE_TEST_KOKKOS_ON_CUDA)
    if (b == backend::kokkos) return true;
#endif
    return b == backend::cuda;
}
} // namespace

TEST_CASE("GPU memory given to a host backend is invalid_argument, managed memory is read", "[errors][residence]") {
    const auto v = preduce::test::random_values<float>(100003, 32);
    const std::size_t bytes = v.size() * sizeof(float);
    float* d = nullptr;
    float* m = nullptr;
    REQUIRE(cudaMalloc(reinterpret_cast<void**>(&d), bytes) == cudaSuccess);
    REQUIRE(cudaMallocManaged(reinterpret_cast<void**>(&m), bytes) == cudaSuccess);
    REQUIRE(cudaMemcpy(d, v.data(), bytes, cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(cudaMemcpy(m, v.data(), bytes, cudaMemcpyDefault) == cudaSuccess);
    for (backend b : available_backends()) {
        INFO("backend " << name(b));
        if (reads_device_memory(b)) {  // all three, in place
            CHECK(preduce::test::same(reduce(b, d, v.size(), argmax), reduce(backend::seq, v, argmax)));
            CHECK(preduce::test::same(reduce(b, m, v.size(), argmax), reduce(backend::seq, v, argmax)));
            CHECK(reduce(b, d, v.size(), sum, {.precision = precision::deterministic}) ==
                  reduce(backend::seq, v, sum, {.precision = precision::deterministic}));
            CHECK(reduce(b, v.data(), d, v.size(), dot, {.precision = precision::deterministic}) ==
                  reduce(backend::seq, v.data(), v.data(), v.size(), dot, {.precision = precision::deterministic}));
            continue;
        }
        CHECK_THROWS_AS(reduce(b, d, v.size(), sum), preduce::invalid_argument);
        CHECK_THROWS_WITH(reduce(b, d, v.size(), argmax), Catch::Contains("device memory"));
        CHECK_THROWS_AS(reduce(b, d, v.size(), sum, {.threads = 2, .precision = precision::deterministic}),
                        preduce::invalid_argument);
        CHECK_THROWS_AS(reduce(b, v.data(), d, v.size(), dot), preduce::invalid_argument);  // either input
        CHECK_THROWS_AS(reduce(b, d + 1, v.size() - 1, sum), preduce::invalid_argument);   // inside an allocation
        // Managed memory is host-readable: the right answer, on the host backend.
        CHECK(preduce::test::same(reduce(b, m, v.size(), argmax), reduce(backend::seq, v, argmax)));
        CHECK(reduce(b, m, v.size(), count_if(greater(0.0f))) == reduce(backend::seq, v, count_if(greater(0.0f))));
        // And the backend still works on host data after refusing.
        CHECK(preduce::test::same(reduce(b, v, argmin), reduce(backend::seq, v, argmin)));
    }
    cudaFree(m);
    cudaFree(d);
}

TEST_CASE("automatic runs device and managed memory on the GPU, pinned memory by the pinned rules", "[residence][automatic]") {
    const auto v = preduce::test::random_values<float>(100003, 33);
    const std::size_t bytes = v.size() * sizeof(float);
    float *d = nullptr, *m = nullptr, *p = nullptr;
    REQUIRE(cudaMalloc(reinterpret_cast<void**>(&d), bytes) == cudaSuccess);
    REQUIRE(cudaMallocManaged(reinterpret_cast<void**>(&m), bytes) == cudaSuccess);
    REQUIRE(cudaMallocHost(reinterpret_cast<void**>(&p), bytes) == cudaSuccess);
    REQUIRE(cudaMemcpy(d, v.data(), bytes, cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(cudaMemcpy(m, v.data(), bytes, cudaMemcpyDefault) == cudaSuccess);
    std::memcpy(p, v.data(), bytes);
    const automatic_choice on_device = choose_automatic(d, bytes);
    CHECK(on_device.chosen == backend::cuda);
    CHECK_THAT(on_device.reason, Catch::Contains("device memory"));
    CHECK(choose_automatic(m, bytes).chosen == backend::cuda);
    CHECK_THAT(choose_automatic(p, bytes).reason, Catch::Contains("pinned host memory"));
    CHECK_THAT(choose_automatic(v.data(), bytes).reason, Catch::Contains("pageable host memory"));
    // Results: the chosen backend's, in every case; a stream in the options means the GPU.
    CHECK(preduce::test::same(reduce(backend::automatic, d, v.size(), argmax), reduce(backend::seq, v, argmax)));
    CHECK(preduce::test::same(reduce(backend::automatic, m, v.size(), sum), reduce(backend::cuda, m, v.size(), sum)));
    const backend for_pinned = choose_automatic(p, bytes).chosen;
    const options one{.threads = 1};  // openmp's reduction clause combines threads in no fixed order
    CHECK(preduce::test::same(reduce(backend::automatic, p, v.size(), sum, one), reduce(for_pinned, p, v.size(), sum, one)));
    cudaStream_t s{};
    REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
    CHECK(choose_automatic(v.data(), bytes, {.stream = s}).chosen == backend::cuda);
    CHECK(preduce::test::same(reduce(backend::automatic, v.data(), v.size(), sum, {.stream = s}),
                              reduce(backend::cuda, v.data(), v.size(), sum, {.stream = s})));
    const options det{.precision = precision::deterministic};
    CHECK(preduce::test::same(reduce(backend::automatic, d, v.size(), sum, det), reduce(backend::seq, v, sum, det)));
    // Segments whose results go to device memory: only the GPU can write them.
    float* out = nullptr;
    REQUIRE(cudaMalloc(reinterpret_cast<void**>(&out), 3 * sizeof(float)) == cudaSuccess);
    const std::vector<std::uint64_t> offsets{0, 10, 10, v.size()};
    reduce_segments(backend::automatic, v.data(), v.size(), offsets.data(), 3, preduce::max, out);
    std::vector<float> got(3);
    REQUIRE(cudaMemcpy(got.data(), out, 3 * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(got == reduce_segments(backend::seq, v, offsets, preduce::max));
    cudaFree(out);
    cudaStreamDestroy(s);
    cudaFreeHost(p);
    cudaFree(m);
    cudaFree(d);
}

TEST_CASE("freed or bogus pointers given to the cuda backend are preduce errors, and the next call works",
          "[errors][residence]") {
    const auto v = preduce::test::random_values<std::int32_t>(1 << 20, 33);
    const std::size_t bytes = v.size() * sizeof(std::int32_t);
    const auto want = reduce(backend::seq, v, wide_sum);
    // Valid device data, and one reduction of each kind first: the staging chunks, result
    // slot and workspace then exist, so no allocation during the test can land on a freed
    // address below and make it valid again.
    std::int32_t* d = nullptr;
    REQUIRE(cudaMalloc(reinterpret_cast<void**>(&d), bytes) == cudaSuccess);
    REQUIRE(cudaMemcpy(d, v.data(), bytes, cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(reduce(backend::cuda, v, wide_sum) == want);
    REQUIRE(reduce(backend::cuda, d, v.size(), wide_sum) == want);
    // Device memory already freed: CUDA no longer knows the address, and the host cannot read
    // it. Reading it as pageable host memory (the staging path) would crash the process.
    std::int32_t* freed_device = nullptr;
    REQUIRE(cudaMalloc(reinterpret_cast<void**>(&freed_device), bytes) == cudaSuccess);
    REQUIRE(cudaFree(freed_device) == cudaSuccess);
    // Pinned host memory already freed: unmapped from the process.
    std::int32_t* freed_pinned = nullptr;
    REQUIRE(cudaMallocHost(reinterpret_cast<void**>(&freed_pinned), bytes) == cudaSuccess);
    REQUIRE(cudaFreeHost(freed_pinned) == cudaSuccess);
    // An aligned address in the first page, which nothing maps.
    const auto* bogus = reinterpret_cast<const std::int32_t*>(std::uintptr_t{4096 - 64});
    for (const std::int32_t* p : {static_cast<const std::int32_t*>(freed_device),
                                  static_cast<const std::int32_t*>(freed_pinned), bogus}) {
        INFO("pointer " << static_cast<const void*>(p));
        CHECK_THROWS_AS(reduce(backend::cuda, p, v.size(), wide_sum), preduce::error);
        CHECK_THROWS_AS(reduce(backend::cuda, p, 1000, argmin), preduce::error);
        CHECK_THROWS_AS(reduce(backend::cuda, p, v.size(), sum, {.precision = precision::deterministic}), preduce::error);
        CHECK_THROWS_AS(reduce(backend::cuda, v.data(), p, 1000, dot), preduce::error);
        // The CUDA context is intact: the next calls, on host and on device data, are right.
        CHECK(reduce(backend::cuda, v, wide_sum) == want);
        CHECK(reduce(backend::cuda, d, v.size(), wide_sum) == want);
    }
    CHECK(cudaGetLastError() == cudaSuccess);
    cudaFree(d);
}

TEST_CASE("2^31+5 and 2^32+7 int32 elements in device memory", "[large]") {
    for (std::size_t n : {(std::size_t{1} << 31) + 5, (std::size_t{1} << 32) + 7}) {
        device_array a(n);
        const std::size_t hi = n - 3, lo = (std::size_t{1} << 31) + 1;  // both past 2^31, hi past 2^32 for the larger n
        a.set(hi, 0x7fffffff);
        a.set(lo, static_cast<std::int32_t>(0x80000000u));
        check_huge(a.p, n, hi, lo);
    }
}

TEST_CASE("segments past 2^31 in device memory: one of 2^32-2 elements, and 2^31+1 segments", "[large][segments]") {
    const std::size_t n = (std::size_t{1} << 32) + 7, two31 = std::size_t{1} << 31, two32 = std::size_t{1} << 32;
    device_array a(n);
    const std::size_t hi = two32, lo = two31 + 10;  // in the long segment, at its indices 2^32-3 and 2^31+7
    a.set(hi, 0x7fffffff);
    a.set(lo, static_cast<std::int32_t>(0x80000000u));
    const std::vector<std::uint64_t> offsets{0, 3, 3, two32 + 1, n};
    const auto wide = reduce_segments(backend::cuda, std::span<const std::int32_t>(a.p, n), offsets, wide_sum);
    REQUIRE(wide.size() == 4);
    CHECK(wide[0] == 3 * static_cast<std::int64_t>(fill));
    CHECK(wide[1] == 0);
    CHECK(wide[2] == static_cast<std::int64_t>(two32 - 4) * fill + 0x7fffffffLL - 0x80000000LL);
    CHECK(wide[3] == 6 * static_cast<std::int64_t>(fill));
    const auto amax = reduce_segments(backend::cuda, std::span<const std::int32_t>(a.p, n), offsets, argmax);
    CHECK(amax[1].index == no_index);
    CHECK(amax[2].value == 0x7fffffff);
    CHECK(amax[2].index == hi - 3);
    const auto amin = reduce_segments(backend::cuda, std::span<const std::int32_t>(a.p, n), offsets, argmin);
    CHECK(amin[2].value == static_cast<std::int32_t>(0x80000000u));
    CHECK(amin[2].index == lo - 3);
    CHECK(amin[3].index == 0);  // ties: the first

    // The same memory as floats (0x01010101, a small normal number): one segment holding all of
    // it has, in the fixed order, the bits of reducing the whole array.
    const auto* f = reinterpret_cast<const float*>(a.p);
    const std::vector<std::uint64_t> whole{0, 0, n};
    for (precision p : {precision::deterministic, precision::compensated}) {
        INFO("precision " << static_cast<int>(p));
        const auto seg = reduce_segments(backend::cuda, std::span<const float>(f, n), whole, sum, {.precision = p});
        CHECK(std::bit_cast<std::uint32_t>(seg[1]) == std::bit_cast<std::uint32_t>(reduce(backend::cuda, f, n, sum, {.precision = p})));
    }

    // 2^31+1 segments of two elements each, by offsets (16 GiB of them, from host memory) and as
    // batches: every result, past index 2^31 too, in its place.
    const std::size_t m = two31 + 1;
    std::vector<std::uint64_t> pairs(m + 1);
    for (std::size_t i = 0; i <= m; ++i) pairs[i] = 2 * i;
    const std::int32_t twice = static_cast<std::int32_t>(2 * fill);
    const auto expect_pairs = [&](const std::vector<std::int32_t>& out) {
        REQUIRE(out.size() == m);
        std::size_t wrong = 0, first_wrong = m;
        for (std::size_t i = 0; i < m; ++i) {
            std::int32_t want = twice;
            if (i == lo / 2) want = static_cast<std::int32_t>(fill + 0x80000000u);
            if (i == hi / 2) want = static_cast<std::int32_t>(fill + 0x7fffffffu);
            if (out[i] != want && wrong++ == 0) first_wrong = i;
        }
        INFO("first wrong result at " << first_wrong);
        CHECK(wrong == 0);
    };
    expect_pairs(reduce_segments(backend::cuda, std::span<const std::int32_t>(a.p, n), pairs, sum));
    expect_pairs(reduce_batches(backend::cuda, std::span<const std::int32_t>(a.p, 2 * m), 2, sum));
}

TEST_CASE("2^32+7 int32 elements streamed from host memory", "[large]") {
    const std::size_t n = (std::size_t{1} << 32) + 7;
    std::vector<std::int32_t> v(n, static_cast<std::int32_t>(fill));
    const std::size_t hi = n - 1, lo = std::size_t{1} << 32;
    v[hi] = 0x7fffffff;
    v[lo] = static_cast<std::int32_t>(0x80000000u);
    check_huge(v.data(), n, hi, lo);
}
