// reduce/<backend>/<op>/<type>/<n>: the compiled front end, preduce::reduce(b, span, op);
// the narrow element types at sum and max only.
#include <exception>
#include <tuple>

#include <preduce/preduce.hpp>

#include "inputs.hpp"
#include "rows.hpp"

namespace preduce_bench {

namespace {

// One struct per operation: its row name and the preduce operation for element type T.
struct op_sum {
    static constexpr std::string_view name = "sum";
    template <class T> static auto make() { return preduce::sum; }
};
struct op_max {
    static constexpr std::string_view name = "max";
    template <class T> static auto make() { return preduce::max; }
};
struct op_argmin {
    static constexpr std::string_view name = "argmin";
    template <class T> static auto make() { return preduce::argmin; }
};
// Inputs are symmetric around 0, so about half the elements pass: an unpredictable branch
// for a naive loop, which is the case worth measuring.
struct op_count_if_greater {
    static constexpr std::string_view name = "count_if_greater";
    template <class T> static auto make() { return preduce::count_if(preduce::greater(T(0))); }
};
// Transform-reduce and fused rows: the target is sumsq and minmax within 10% of
// sum's throughput on the same backend (one pass, memory-bound).
struct op_sumsq {
    static constexpr std::string_view name = "sumsq";
    template <class T> static auto make() { return preduce::sumsq; }
};
struct op_minmax {
    static constexpr std::string_view name = "minmax";
    template <class T> static auto make() { return preduce::minmax; }
};
struct op_mean {
    static constexpr std::string_view name = "mean";
    template <class T> static auto make() { return preduce::mean; }
};
// The fixed-order sums (precision::deterministic / compensated) next to the fast sum.
struct op_sum_det {
    static constexpr std::string_view name = "sum_det";
    static constexpr preduce::precision precision = preduce::precision::deterministic;
    template <class T> static auto make() { return preduce::sum; }
};
struct op_sum_comp {
    static constexpr std::string_view name = "sum_comp";
    static constexpr preduce::precision precision = preduce::precision::compensated;
    template <class T> static auto make() { return preduce::sum; }
};
using all_ops = std::tuple<op_sum, op_max, op_argmin, op_count_if_greater, op_sumsq, op_minmax, op_mean, op_sum_det,
                           op_sum_comp>;

template <class Op>
preduce::options options_of() {
    preduce::options o;
    if constexpr (requires { Op::precision; }) o.precision = Op::precision;
    return o;
}

template <class T, class Op>
void run_reduce(benchmark::State& st, preduce::backend b, std::size_t n) {
    const auto op = Op::template make<T>();
    const preduce::options opts = options_of<Op>();
    windows<T> w(n);
    try {
        for (auto _ : st) {
            auto r = preduce::reduce(b, std::span<const T>(w.next(), n), op, opts);
            benchmark::DoNotOptimize(r);
        }
    } catch (const std::exception& e) {
        st.SkipWithError(e.what());
        return;
    }
    set_throughput(st, n, sizeof(T));
}

template <class T, class Op>
void register_op(std::size_t n, std::span<const preduce::backend> backends) {
    for (const preduce::backend b : backends) {
        const std::string name = row_name({"reduce", preduce::name(b), Op::name, type_tag<T>()}, n);
        configure(benchmark::RegisterBenchmark(name.c_str(), [b, n](benchmark::State& st) {
            run_reduce<T, Op>(st, b, n);
        }));
    }
}

} // namespace

template <class T>
void register_reduce_rows(std::size_t n, std::span<const preduce::backend> backends) {
    std::apply([&](auto... ops) { (register_op<T, decltype(ops)>(n, backends), ...); }, all_ops{});
}

// The narrow element types: sum (the accumulation rule at work) and max (the element's own
// order), in bytes of input, so that a narrow row and a float32 row compare per byte.
template <class T>
void register_narrow_rows(std::size_t n, std::span<const preduce::backend> backends) {
    register_op<T, op_sum>(n, backends);
    register_op<T, op_max>(n, backends);
}

#define PREDUCE_BENCH_INSTANTIATE(T) template void register_narrow_rows<T>(std::size_t, std::span<const preduce::backend>);
PREDUCE_FOR_EACH_NARROW_ELEMENT(PREDUCE_BENCH_INSTANTIATE)
#undef PREDUCE_BENCH_INSTANTIATE

template void register_reduce_rows<float>(std::size_t, std::span<const preduce::backend>);
template void register_reduce_rows<double>(std::size_t, std::span<const preduce::backend>);
template void register_reduce_rows<std::int32_t>(std::size_t, std::span<const preduce::backend>);

} // namespace preduce_bench
