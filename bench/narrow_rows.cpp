// reduce/<backend>/<op>/<type>/<n> for the narrow element types (int8, uint8, int16, uint16,
// float16, bfloat16) through the compiled front end, sum and max on every backend. Beside
// them, register_anchor_rows gives the read probe of the same bytes; throughput is in bytes
// of input, so a narrow row and a float32 row compare per byte.
#include <preduce/preduce.hpp>

#include "inputs.hpp"
#include "rows.hpp"

namespace preduce_bench {

namespace {

template <class T, class Op>
void add_row(preduce::backend b, std::string_view op_name, std::size_t n, Op op) {
    const std::string name = row_name({"reduce", preduce::name(b), op_name, type_tag<T>()}, n);
    configure(benchmark::RegisterBenchmark(name.c_str(), [b, n, op](benchmark::State& st) {
        windows<T> w(n);
        for (auto _ : st) {
            auto r = preduce::reduce(b, w.next(), n, op);
            benchmark::DoNotOptimize(r);
        }
        set_throughput(st, n, sizeof(T));
    }));
}

} // namespace

// sum (the accumulation rule at work) and max (the element's own order) on each backend.
template <class T>
void register_narrow_rows(std::size_t n, std::span<const preduce::backend> backends) {
    for (const preduce::backend b : backends) {
        add_row<T>(b, "sum", n, preduce::sum);
        add_row<T>(b, "max", n, preduce::max);
    }
}

#define PREDUCE_BENCH_INSTANTIATE(T) template void register_narrow_rows<T>(std::size_t, std::span<const preduce::backend>);
PREDUCE_FOR_EACH_NARROW_ELEMENT(PREDUCE_BENCH_INSTANTIATE)
#undef PREDUCE_BENCH_INSTANTIATE

} // namespace preduce_bench
