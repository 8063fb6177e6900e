// anchor/...: what the backend rows are judged against, on the same bytes.
#include <omp.h>

#include <execution>
#include <functional>
#include <numeric>
#include <type_traits>

#include "inputs.hpp"
#include "preduce/detail/core/elements.hpp"
#include "preduce/detail/core/numeric.hpp"
#include "read_probe.hpp"
#include "rows.hpp"

namespace preduce_bench {

namespace {

// Integers are summed in their unsigned twin, as preduce does: wrap-around without UB.
template <class T>
struct sum_type { using type = T; };
template <class T>
    requires std::is_integral_v<T>
struct sum_type<T> { using type = std::make_unsigned_t<T>; };
template <class T>
using sum_t = typename sum_type<T>::type;

template <class T, class Body>
void run_anchor(benchmark::State& st, std::size_t n, Body body) {
    windows<T> w(n);
    for (auto _ : st) {
        auto r = body(w.next(), n);
        benchmark::DoNotOptimize(r);
    }
    set_throughput(st, n, sizeof(T));
}

template <class T, class Body>
void add_anchor(std::initializer_list<std::string_view> parts, std::size_t n, Body body) {
    const std::string name = row_name(parts, n);
    configure(benchmark::RegisterBenchmark(name.c_str(),
                                           [n, body](benchmark::State& st) { run_anchor<T>(st, n, body); }));
}

} // namespace

template <class T>
void register_anchor_rows(std::size_t n) {
    const auto t = type_tag<T>();
    if constexpr (!preduce::detail::is_half_v<T>) {  // the 16-bit floats have no arithmetic of their own
        add_anchor<T>({"anchor", "std_accumulate", t}, n, [](const T* p, std::size_t m) {
            return std::accumulate(p, p + m, sum_t<T>(0), std::plus<sum_t<T>>());
        });
        add_anchor<T>({"anchor", "std_reduce_par_unseq", t}, n, [](const T* p, std::size_t m) {
            return std::reduce(std::execution::par_unseq, p, p + m, sum_t<T>(0), std::plus<sum_t<T>>());
        });
    }
    const int all = omp_get_max_threads();
    for (const int threads : {1, all}) {
        const std::string th = "threads:" + std::to_string(threads);
        add_anchor<T>({"anchor", "read_probe", th, t}, n, [threads](const T* p, std::size_t m) {
            return read_probe(p, m * sizeof(T), threads);
        });
        if (all == 1) break;
    }
}

template void register_anchor_rows<float>(std::size_t);
template void register_anchor_rows<double>(std::size_t);
template void register_anchor_rows<std::int32_t>(std::size_t);
#define PREDUCE_BENCH_INSTANTIATE(T) template void register_anchor_rows<T>(std::size_t);
PREDUCE_FOR_EACH_NARROW_ELEMENT(PREDUCE_BENCH_INSTANTIATE)
#undef PREDUCE_BENCH_INSTANTIATE

} // namespace preduce_bench
