// vs_probe/openmp/sum/<type>/<n>: the openmp backend's sum through the front end and the read
// probe on as many threads, called in turn on the same windows in one row (time_interleaved);
// vs_probe/openmp/segments/f32/<n>/seg:16 and vs_probe/openmp/columns/f32/<n>/<rows>x<cols>
// the same for row sums of 16 elements and the column sums of a square matrix and of rows
// of 256;
// so that a drift of the machine's bandwidth moves both alike. Counters: openmp_us and
// probe_us (median calls), of_probe = probe_us / openmp_us (1.0: the sum reads at the probe's
// speed). The separate reduce/ and anchor/ rows run seconds apart, and on a small shared
// machine their ratio moves by 10-20% from run to run.
#include <omp.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <preduce/preduce.hpp>

#include "inputs.hpp"
#include "median_timer.hpp"
#include "read_probe.hpp"
#include "rows.hpp"

namespace preduce_bench {

namespace {

// One vs_probe row: call(window) and the probe over the same n elements, interleaved.
template <class T, class Call>
void register_pair(const std::string& name, std::size_t n, Call call) {
    benchmark::RegisterBenchmark(name.c_str(), [n, call](benchmark::State& st) {
        windows<T> w(n);
        const int threads = omp_get_max_threads();
        using call_t = std::function<void(std::size_t)>;
        std::vector<candidate<call_t>> c;
        c.push_back({"openmp", [&](std::size_t) { call(w.next()); }});
        c.push_back({"probe", [&](std::size_t) { benchmark::DoNotOptimize(read_probe(w.next(), n * sizeof(T), threads)); }});
        try {
            time_interleaved(st, n * sizeof(T), c);
        } catch (const std::exception& e) {
            st.SkipWithError(e.what());
            return;
        }
        if (st.counters.count("openmp_us") != 0 && st.counters["openmp_us"] > 0)
            st.counters["of_probe"] = st.counters["probe_us"] / st.counters["openmp_us"];
    })
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
}

} // namespace

template <class T>
void register_probe_pair_rows(std::size_t n, std::span<const preduce::backend> backends) {
    if (std::find(backends.begin(), backends.end(), preduce::backend::openmp) == backends.end()) return;
    const std::string tail = std::string(type_tag<T>()) + "/" + std::to_string(n);
    register_pair<T>("vs_probe/openmp/sum/" + tail, n, [n](const T* x) {
        benchmark::DoNotOptimize(preduce::reduce(preduce::backend::openmp, x, n, preduce::sum));
    });
    if constexpr (std::is_same_v<T, float>) {
        // Many results: row sums of 16 elements (reduce_batches), and column sums (axis 0) of
        // the square matrix of n elements, against the probe over the same bytes.
        auto sums = std::make_shared<std::vector<T>>(n / 16);
        register_pair<T>("vs_probe/openmp/segments/" + tail + "/seg:16", n, [n, sums](const T* x) {
            preduce::reduce_batches(preduce::backend::openmp, std::span<const T>(x, n), 16, preduce::sum, *sums);
            benchmark::DoNotOptimize(sums->data());
        });
        const auto columns_row = [&](std::size_t rows, std::size_t cols) {
            auto columns = std::make_shared<std::vector<T>>(cols);
            register_pair<T>("vs_probe/openmp/columns/" + tail + "/" + std::to_string(rows) + "x" + std::to_string(cols), n,
                             [rows, cols, columns](const T* x) {
                                 const std::vector<std::size_t> shape{rows, cols};
                                 const std::vector<int> axes{0};
                                 preduce::reduce_axes(preduce::backend::openmp, x, shape, axes, preduce::sum,
                                                      columns->data(), columns->size());
                                 benchmark::DoNotOptimize(columns->data());
                             });
        };
        std::size_t side = 1;
        while (side * side * 4 <= n) side *= 2;
        if (side * side == n) columns_row(side, side);
        // NumPy's sum(axis=0) shape of bench/python_vs_numpy.py: rows of 256.
        if (n % 256 == 0 && n / 256 > 256) columns_row(n / 256, 256);
    }
}

template void register_probe_pair_rows<float>(std::size_t, std::span<const preduce::backend>);
#define PREDUCE_BENCH_INSTANTIATE(T) template void register_probe_pair_rows<T>(std::size_t, std::span<const preduce::backend>);
PREDUCE_FOR_EACH_NARROW_ELEMENT(PREDUCE_BENCH_INSTANTIATE)
#undef PREDUCE_BENCH_INSTANTIATE

} // namespace preduce_bench
