// Eight host threads calling reduce() at once, 1000 times each, on every usable backend,
// then on all of them interleaved: the backends keep per-call and per-thread state
// (OpenMP teams, Kokkos' launch lock, CUDA staging buffers and workspaces), and a race
// in any of it shows as a wrong answer or an exception here. Each call picks one of ~600
// reductions (op x element type x size, sizes on both sides of the parallel thresholds)
// and an OpenMP thread count in {0, 1, 2, 3}; every answer was computed before the
// threads started, with seq and the oracles.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <latch>
#include <memory>
#include <mutex>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "preduce/preduce.hpp"
#include "oracle/compare.hpp"
#include "support/data.hpp"
#include "oracle/oracle.hpp"

using namespace preduce;
using namespace preduce::test;

namespace {

constexpr int host_threads = 8;
constexpr int calls_per_thread = 1000;

// Empty, below and at a SIMD lane block and a deterministic block (4096), around
// openmp's chunk (16384) and parallel threshold (32768), and up to ~200K elements.
const std::vector<std::size_t> sizes = {0, 1, 7, 33, 1000, 4097, 16385, 32767, 32768, 65537, 131071, 200003};

// One reduction whose right answer is known before any thread starts. check(b, threads)
// runs it and returns "" when the answer is right, or what was wrong.
struct job {
    std::string name;
    std::function<std::string(backend, int)> check;
};

template <class R>
std::string mismatch(const R& got, const R& want) {
    return "got " + show(got) + ", want " + show(want);
}

// Exact results: the same bits as seq (floats: up to NaN payload, sign of zero included).
template <class T, class Op>
job exact_job(std::string name, std::span<const T> x, Op op, options base = {}) {
    using R = result_of_t<T, Op>;
    const R want = reduce(backend::seq, x.data(), x.size(), op, base);
    return {std::move(name), [x, op, base, want](backend b, int threads) -> std::string {
                options o = base;
                o.threads = threads;
                const R got = reduce(b, x.data(), x.size(), op, o);
                if constexpr (std::is_same_v<R, minmax_result<T>>) {
                    if (same(got.min, want.min) && same(got.max, want.max)) return {};
                    return "got {" + show(got.min) + ", " + show(got.max) + "}, want {" + show(want.min) + ", " +
                           show(want.max) + "}";
                } else {
                    return same(got, want) ? std::string() : mismatch(got, want);
                }
            }};
}

// A float sum in the backend's own order: within Higham's bound of the exact sum.
template <class T, class Op>
job bounded_job(std::string name, std::span<const T> x, Op op, oracle::float_sum ref) {
    return {std::move(name), [x, op, ref](backend b, int threads) -> std::string {
                const T got = reduce(b, x.data(), x.size(), op, {.threads = threads});
                if (std::fabs(static_cast<long double>(got) - ref.exact) <= ref.bound) return {};
                return "got " + show(got) + ", exact " + show(static_cast<double>(ref.exact)) + ", bound " +
                       show(static_cast<double>(ref.bound));
            }};
}

template <class T>
void add_jobs(std::vector<job>& jobs, const std::vector<T>& data) {
    constexpr long double u = std::numeric_limits<T>::epsilon() / 2;
    for (std::size_t n : sizes) {
        // Three start offsets by size: 4-byte aligned starts that are not 16/32-byte aligned.
        const std::span<const T> x(data.data() + n % 3, n);
        const std::string tag = std::string(detail::type_name<T>()) + " n=" + std::to_string(n);
        const T pivot = n == 0 ? T(0) : x[n / 2];
        if constexpr (std::is_floating_point_v<T>) {
            jobs.push_back(bounded_job<T>("sum " + tag, x, preduce::sum, oracle::sum_with_bound(x, u)));
            jobs.push_back(bounded_job<T>(
                "sumsq " + tag, x, preduce::sumsq,
                oracle::lifted_sum_with_bound<T>(n, [&](std::size_t i) { return static_cast<long double>(x[i]) * x[i]; }, u)));
        } else {
            jobs.push_back(exact_job<T>("sum " + tag, x, preduce::sum));
            jobs.push_back(exact_job<T>("sumsq " + tag, x, preduce::sumsq));
        }
        jobs.push_back(exact_job<T>("deterministic sum " + tag, x, preduce::sum, {.precision = precision::deterministic}));
        jobs.push_back(exact_job<T>("max " + tag, x, preduce::max));
        jobs.push_back(exact_job<T>("argmin " + tag, x, preduce::argmin));
        jobs.push_back(exact_job<T>("count_if " + tag, x, count_if(greater(pivot))));
        jobs.push_back(exact_job<T>("minmax " + tag, x, preduce::minmax));
        const auto ref = oracle::moments_of(x);
        jobs.push_back({"mean " + tag, [x, ref](backend b, int threads) -> std::string {
                            const double got = reduce(b, x.data(), x.size(), preduce::mean, {.threads = threads});
                            const bool ok = ref.count == 0 ? std::isnan(got)
                                                           : std::fabs(got - ref.mean) <= oracle::mean_tolerance(ref);
                            return ok ? std::string() : "got " + show(got) + ", want " + show(static_cast<double>(ref.mean));
                        }});
    }
}

// The jobs and the data their spans point into.
struct job_set {
    std::vector<std::shared_ptr<const void>> data;
    std::vector<job> jobs;

    template <class T>
    void add(std::uint64_t salt) {
        auto v = std::make_shared<const std::vector<T>>(random_values<T>(sizes.back() + 2, salt));
        data.push_back(v);
        add_jobs<T>(jobs, *v);
    }
};

job_set all_jobs() {
    job_set s;
    s.add<float>(1);
    s.add<double>(2);
    s.add<std::int32_t>(3);
    s.add<std::uint32_t>(4);
    s.add<std::int64_t>(5);
    s.add<std::uint64_t>(6);
    return s;
}

struct outcome {
    std::atomic<long> calls{0};
    std::atomic<long> wrong{0};
    std::mutex m;
    std::vector<std::string> first_failures;  // at most 20
};

// host_threads threads, started together, each making calls_per_thread calls of random
// jobs on random backends of `on`.
void hammer(const std::vector<job>& jobs, const std::vector<backend>& on, outcome& out) {
    std::latch start(host_threads);
    std::vector<std::thread> pool;
    for (int t = 0; t < host_threads; ++t)
        pool.emplace_back([&, t] {
            std::mt19937_64 rng(seed() ^ (0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(t + 1)));
            start.arrive_and_wait();
            for (int c = 0; c < calls_per_thread; ++c) {
                const job& j = jobs[rng() % jobs.size()];
                const backend b = on[rng() % on.size()];
                const int threads = static_cast<int>(rng() % 4);
                std::string error;
                try {
                    error = j.check(b, threads);
                } catch (const std::exception& e) {
                    error = std::string("threw: ") + e.what();
                }
                ++out.calls;
                if (error.empty()) continue;
                ++out.wrong;
                const std::lock_guard<std::mutex> lock(out.m);
                if (out.first_failures.size() < 20)
                    out.first_failures.push_back(std::string(name(b)) + ", threads=" + std::to_string(threads) +
                                                 ", host thread " + std::to_string(t) + ", call " + std::to_string(c) +
                                                 ": " + j.name + ": " + error);
            }
        });
    for (auto& th : pool) th.join();
}

void run_phase(const std::vector<job>& jobs, const std::vector<backend>& on, const std::string& label) {
    outcome out;
    const auto t0 = std::chrono::steady_clock::now();
    hammer(jobs, on, out);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%-22s %d threads x %d calls: %ld wrong, %.2f s\n", label.c_str(), host_threads, calls_per_thread,
                out.wrong.load(), seconds);
    std::string report;
    for (const auto& f : out.first_failures) report += "\n  " + f;
    INFO(label << ", seed " << seed() << report);
    CHECK(out.calls == long{host_threads} * calls_per_thread);
    CHECK(out.wrong == 0);
}

} // namespace

TEST_CASE("8 host threads x 1000 calls on each backend, then on all of them interleaved, all give seq's answers",
          "[concurrency]") {
    const auto set = all_jobs();
    const auto& jobs = set.jobs;
    for (backend b : all_backends)
        if (is_built(b) && !is_usable(b)) std::printf("%s: skipped, %s\n", std::string(name(b)).c_str(), unusable_reason(b).c_str());
    const auto usable = available_backends();
    REQUIRE(!usable.empty());
    for (backend b : usable) run_phase(jobs, {b}, std::string(name(b)));
    if (usable.size() > 1) run_phase(jobs, usable, "all backends, mixed");
}
