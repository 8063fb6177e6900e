// latency/<backend>/<op>/f32/<n>: what a caller waits for one call of the front end,
// preduce::reduce(b, span, op), on the host clock, median of up to 200 samples
// (median_timer.hpp), at n = 2^0, 2^2, ... up to the largest size of the run (--sizes MAX),
// beside latency/std_accumulate/sum/f32/<n>; and automatic/<op>/f32/<n>, backend::automatic
// against every backend (register_automatic_rows); and precision/<backend>/<op>/<type>/<n>, the
// three precisions side by side (register_precision_rows). Inputs rotate through the float buffer as the
// throughput rows' do, so they come from memory, not from a cache warmed by the last call.
#include <exception>
#include <functional>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <preduce/preduce.hpp>

#include "config.hpp"
#include "inputs.hpp"
#include "median_timer.hpp"
#include "precision_ops.hpp"
#include "rows.hpp"

namespace preduce_bench {

namespace {

// A guess of one call's seconds for the row's call count: a microsecond, plus the bytes
// at 5 GB/s (one slow thread), so the longest rows stay near the calls_within budget.
double seconds_per_call(std::size_t n) { return 1e-6 + static_cast<double>(n * sizeof(float)) / 5e9; }

// The op named "sum", "max" or "argmin" (its index, as a float) over x on backend b.
float reduce_op(preduce::backend b, std::span<const float> x, std::string_view op) {
    if (op == "sum") return preduce::reduce(b, x, preduce::sum);
    if (op == "max") return preduce::reduce(b, x, preduce::max);
    return static_cast<float>(preduce::reduce(b, x, preduce::argmin).index);
}

template <class Call>
void latency_row(const std::string& name, std::size_t n, Call call) {
    benchmark::RegisterBenchmark(name.c_str(), [n, call](benchmark::State& st) {
        windows<float> w(n);
        try {
            time_calls(st, n * sizeof(float), [&](std::size_t) { benchmark::DoNotOptimize(call(w.next(), n)); });
        } catch (const std::exception& e) {
            st.SkipWithError(e.what());
        }
    })
        ->UseManualTime()
        ->Iterations(calls_within(seconds_per_call(n)))
        ->Unit(benchmark::kMicrosecond);
}

} // namespace

void register_latency_rows(std::span<const preduce::backend> backends) {
    const preduce::options det{.precision = preduce::precision::deterministic};
    for (int e = 0; e <= current().max_log2; e += 2) {
        const std::size_t n = std::size_t{1} << e;
        latency_row(row_name({"latency", "std_accumulate", "sum", "f32"}, n),
                    n, [](const float* p, std::size_t k) { return std::accumulate(p, p + k, 0.0f); });
        for (const preduce::backend b : backends) {
            const std::string who(preduce::name(b));
            latency_row(row_name({"latency", who, "sum", "f32"}, n), n, [b](const float* p, std::size_t k) {
                return preduce::reduce(b, std::span<const float>(p, k), preduce::sum);
            });
            latency_row(row_name({"latency", who, "max", "f32"}, n), n, [b](const float* p, std::size_t k) {
                return preduce::reduce(b, std::span<const float>(p, k), preduce::max);
            });
            latency_row(row_name({"latency", who, "sum_det", "f32"}, n), n, [b, det](const float* p, std::size_t k) {
                return preduce::reduce(b, std::span<const float>(p, k), preduce::sum, det);
            });
        }
    }
}

// automatic/<op>/f32/<n>: backend::automatic and every backend, timed in turn in one row
// (time_interleaved: counters <backend>_us), at n = 2^4, 2^6, ... up to --sizes MAX.
void register_automatic_rows(std::span<const preduce::backend> available) {
    using call_t = std::function<void(std::size_t)>;
    std::vector<preduce::backend> backends(available.begin(), available.end());
    backends.push_back(preduce::backend::automatic);
    for (int e = 4; e <= current().max_log2; e += 2) {
        const std::size_t n = std::size_t{1} << e;
        for (const char* op : {"sum", "max", "argmin"}) {
            const std::string name = row_name({"automatic", op, "f32"}, n);
            benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) {
                auto w = std::make_shared<windows<float>>(n);
                std::vector<candidate<call_t>> c;
                for (const preduce::backend b : backends)
                    c.push_back({std::string(preduce::name(b)), [=](std::size_t) {
                                     benchmark::DoNotOptimize(reduce_op(b, std::span<const float>(w->next(), n), op));
                                 }});
                try {
                    time_interleaved(st, n * sizeof(float), c);
                } catch (const std::exception& ex) {
                    st.SkipWithError(ex.what());
                }
            })
                ->UseManualTime()
                ->Iterations(calls_within(static_cast<double>(backends.size()) * seconds_per_call(n), 1.0))
                ->Unit(benchmark::kMicrosecond);
        }
    }
}

// precision/<backend>/<op>/<type>/<n>: the price of determinism. precision::fast,
// deterministic and compensated of sum, sumsq and dot, timed in turn in one row
// (time_interleaved: counters fast_us, deterministic_us, compensated_us), at the largest size
// of the run (--sizes MAX, 2^26 by default), float and double.
template <class T>
void register_precision_type(std::span<const preduce::backend> backends) {
    using call_t = std::function<void(std::size_t)>;
    const std::size_t n = current().max_n();
    for (const preduce::backend b : backends)
        for (const char* op : precision_ops) {
            const std::size_t inputs = inputs_of(op);
            const std::string name = row_name({"precision", preduce::name(b), op, type_tag<T>()}, n);
            benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) {
                auto x = std::make_shared<windows<T>>(n);
                auto y = std::make_shared<windows<T>>(n);
                y->next();  // the second input: always another window than the first
                std::vector<candidate<call_t>> c;
                for (preduce::precision p : precisions)
                    c.push_back({std::string(preduce::name(p)), [=](std::size_t) {
                                     benchmark::DoNotOptimize(
                                         reduce_named(b, op, x->next(), y->next(), n, {.precision = p}));
                                 }});
                try {
                    time_interleaved(st, n * sizeof(T) * inputs, c);
                } catch (const std::exception& ex) {
                    st.SkipWithError(ex.what());
                }
            })
                ->UseManualTime()
                ->Iterations(calls_within(3.0 * seconds_per_call(n * sizeof(T) * inputs / sizeof(float)), 4.0))
                ->Unit(benchmark::kMicrosecond);
        }
}

void register_precision_rows(std::span<const preduce::backend> backends) {
    register_precision_type<float>(backends);
    register_precision_type<double>(backends);
}

} // namespace preduce_bench
