// vs_probe/openmp/sum/<type>/<n>: the openmp backend's sum through the front end and the read
// probe on as many threads, called in turn on the same windows in one row (time_interleaved),
// so that a drift of the machine's bandwidth moves both alike. Counters: openmp_us and
// probe_us (median calls), of_probe = probe_us / openmp_us (1.0: the sum reads at the probe's
// speed). The separate reduce/ and anchor/ rows run seconds apart, and on a small shared
// machine their ratio moves by 10-20% from run to run.
#include <omp.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include <preduce/preduce.hpp>

#include "inputs.hpp"
#include "median_timer.hpp"
#include "read_probe.hpp"
#include "rows.hpp"

namespace preduce_bench {

template <class T>
void register_probe_pair_rows(std::size_t n, std::span<const preduce::backend> backends) {
    if (std::find(backends.begin(), backends.end(), preduce::backend::openmp) == backends.end()) return;
    const std::string name = "vs_probe/openmp/sum/" + std::string(type_tag<T>()) + "/" + std::to_string(n);
    benchmark::RegisterBenchmark(name.c_str(), [n](benchmark::State& st) {
        windows<T> w(n);
        const int threads = omp_get_max_threads();
        using call_t = std::function<void(std::size_t)>;
        std::vector<candidate<call_t>> c;
        c.push_back({"openmp", [&](std::size_t) {
                         benchmark::DoNotOptimize(preduce::reduce(preduce::backend::openmp, w.next(), n, preduce::sum));
                     }});
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

template void register_probe_pair_rows<float>(std::size_t, std::span<const preduce::backend>);
#define PREDUCE_BENCH_INSTANTIATE(T) template void register_probe_pair_rows<T>(std::size_t, std::span<const preduce::backend>);
PREDUCE_FOR_EACH_NARROW_ELEMENT(PREDUCE_BENCH_INSTANTIATE)
#undef PREDUCE_BENCH_INSTANTIATE

} // namespace preduce_bench
