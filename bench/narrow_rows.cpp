// reduce/<backend>/<op>/<type>/<n> for the narrow element types (int8, uint8, int16, uint16,
// float16, bfloat16): each host backend's header-only template, which is what takes these
// types today (the compiled front end does not yet). Beside them, register_anchor_rows
// gives the read probe of the same bytes; throughput is in bytes of input, so a narrow row
// and a float32 row compare per byte.
#include "preduce/config.hpp"
#include "preduce/ops.hpp"
#include "preduce/seq/reduce.hpp"
#if PREDUCE_HAVE_OPENMP
#include "preduce/openmp/reduce.hpp"
#endif
#if PREDUCE_HAVE_KOKKOS
#include "preduce/kokkos/reduce.hpp"
#endif

#include "inputs.hpp"
#include "rows.hpp"

namespace preduce_bench {

namespace {

template <class T, class Call>
void add_row(std::string_view backend, std::string_view op, std::size_t n, Call call) {
    const std::string name = row_name({"reduce", backend, op, type_tag<T>()}, n);
    configure(benchmark::RegisterBenchmark(name.c_str(), [n, call](benchmark::State& st) {
        windows<T> w(n);
        for (auto _ : st) {
            auto r = call(w.next(), n);
            benchmark::DoNotOptimize(r);
        }
        set_throughput(st, n, sizeof(T));
    }));
}

// sum (the accumulation rule at work) and max (the element's own order) on one backend.
#define PREDUCE_BENCH_NARROW_ROWS(NS, NAME)                                                           \
    add_row<T>(NAME, "sum", n, [](const T* p, std::size_t m) { return NS::reduce(p, m, preduce::sum); }); \
    add_row<T>(NAME, "max", n, [](const T* p, std::size_t m) { return NS::reduce(p, m, preduce::max); });

} // namespace

template <class T>
void register_narrow_rows(std::size_t n) {
    PREDUCE_BENCH_NARROW_ROWS(preduce::seq, "seq")
#if PREDUCE_HAVE_OPENMP
    PREDUCE_BENCH_NARROW_ROWS(preduce::openmp, "openmp")
#endif
#if PREDUCE_HAVE_KOKKOS
    PREDUCE_BENCH_NARROW_ROWS(preduce::kokkos, "kokkos")
#endif
}
#undef PREDUCE_BENCH_NARROW_ROWS

template void register_narrow_rows<std::int8_t>(std::size_t);
template void register_narrow_rows<std::uint8_t>(std::size_t);
template void register_narrow_rows<std::int16_t>(std::size_t);
template void register_narrow_rows<std::uint16_t>(std::size_t);
template void register_narrow_rows<preduce::float16>(std::size_t);
template void register_narrow_rows<preduce::bfloat16>(std::size_t);

} // namespace preduce_bench
