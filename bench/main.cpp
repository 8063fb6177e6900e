// preduce_bench: every available backend x operation x element type x size, side by side
// with the anchors (std::accumulate, std::reduce(par_unseq), a SIMD read probe) in one
// run. Rows are registered at run time from preduce::available_backends(), so a build
// with more backends gets more rows without touching this file.
//
//   preduce_bench                                          # the full suite, a few minutes
//   preduce_bench --benchmark_filter='sum/f32/67108864|read_probe'
//   preduce_bench --benchmark_format=json > run.json && python3 ratios.py run.json
//
// Our own flags (config.hpp): --sizes=MIN:MAX[:STEP] (log2), --buffer_mib=N, --in_cache,
// --hugepages. --benchmark_min_time defaults to 0.2 s here (Google Benchmark's own
// default is 0.5 s); pass it to override.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <type_traits>
#include <vector>

#include <preduce/preduce.hpp>

#include "config.hpp"
#include "inputs.hpp"
#include "read_probe.hpp"
#include "rows.hpp"

namespace preduce_bench {

std::string row_name(std::initializer_list<std::string_view> parts, std::size_t n) {
    std::string s;
    for (const auto p : parts) {
        s.append(p);
        s.push_back('/');
    }
    s.append(std::to_string(n));
    return s;
}

benchmark::internal::Benchmark* configure(benchmark::internal::Benchmark* b) {
    return b->UseRealTime()->Unit(benchmark::kMicrosecond);
}

namespace {

void print_help() {
    benchmark::PrintDefaultHelp();
    std::fprintf(stdout,
                 "\npreduce_bench flags (environment variable in brackets):\n"
                 "  --sizes=MIN:MAX[:STEP]  log2 of element counts, default 10:26:2 [PREDUCE_BENCH_SIZES]\n"
                 "  --buffer_mib=N          per-type input buffer, default 256 MiB [PREDUCE_BENCH_BUFFER_MIB]\n"
                 "  --in_cache              re-read the same n elements each iteration [PREDUCE_BENCH_IN_CACHE=1]\n"
                 "  --hugepages             MADV_HUGEPAGE on the input buffers [PREDUCE_BENCH_HUGEPAGES=1]\n"
                 "  --benchmark_min_time defaults to 0.2 here.\n"
                 "Row names: reduce/<backend>/<op>/<type>/<n>, anchor/<what>/<type>/<n>; see bench/README.md.\n");
}

template <class T>
void register_type(const config& c, const std::vector<preduce::backend>& backends) {
    for (const std::size_t n : c.sizes()) {
        register_anchor_rows<T>(n);
        register_reduce_rows<T>(n, backends);
        if constexpr (std::is_same_v<T, float>) register_segment_rows(n, backends);
    }
    if constexpr (std::is_same_v<T, float>) register_probe_pair_rows<T>(c.max_n(), backends);
}

// The narrow types at the largest size only (bandwidth, not the size sweep: six more
// types at every size would double the suite's run time).
template <class T>
void register_narrow_type(const config& c, const std::vector<preduce::backend>& backends) {
    register_anchor_rows<T>(c.max_n());
    register_narrow_rows<T>(c.max_n(), backends);
    register_probe_pair_rows<T>(c.max_n(), backends);
}

} // namespace
} // namespace preduce_bench

int main(int argc, char** argv) {
    using namespace preduce_bench;
    // A lower default min_time than Google Benchmark's 0.5 s keeps the full suite at a few
    // minutes; an explicit --benchmark_min_time on the command line wins.
    std::vector<char*> args(argv, argv + argc);
    static char default_min_time[] = "--benchmark_min_time=0.2";
    bool has_min_time = false;
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "--benchmark_min_time", 20) == 0) has_min_time = true;
    if (!has_min_time) args.insert(args.begin() + 1, default_min_time);
    int ac = static_cast<int>(args.size());
    args.push_back(nullptr);

    benchmark::Initialize(&ac, args.data(), print_help);
    config c;
    try {
        c = parse_config(ac, args.data());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    if (benchmark::ReportUnrecognizedArguments(ac, args.data())) return 2;
    set_current(c);

    const std::vector<preduce::backend> backends = preduce::available_backends();
    std::string described;
    for (const auto b : backends) described += (described.empty() ? "" : ", ") + preduce::describe(b);
    benchmark::AddCustomContext("preduce_backends", described);
    benchmark::AddCustomContext("preduce_inputs", c.describe());
    benchmark::AddCustomContext("read_probe_isa", read_probe_isa());
    benchmark::AddCustomContext("omp_max_threads", std::to_string(omp_get_max_threads()));

    register_type<float>(c, backends);
    register_type<double>(c, backends);
    register_type<std::int32_t>(c, backends);
#define PREDUCE_BENCH_NARROW(T) register_narrow_type<T>(c, backends);
    PREDUCE_FOR_EACH_NARROW_ELEMENT(PREDUCE_BENCH_NARROW)
#undef PREDUCE_BENCH_NARROW
    register_latency_rows(backends);
    register_automatic_rows(backends);
    register_precision_rows(backends);

    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
