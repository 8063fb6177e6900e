#pragma once
// The precision/ rows of both benchmarks (CPU and GPU): each of these ops under each of the
// three precisions, through the front end.
#include <cstddef>
#include <string_view>

#include <preduce/preduce.hpp>

namespace preduce_bench {

inline constexpr preduce::precision precisions[] = {preduce::precision::fast, preduce::precision::deterministic,
                                                    preduce::precision::compensated};
inline constexpr const char* precision_ops[] = {"sum", "sumsq", "dot"};

// Arrays the op reads: dot reads x and y.
inline std::size_t inputs_of(std::string_view op) { return op == "dot" ? 2 : 1; }

// The op named `op` of x[0, n) (dot: with y[0, n)) on backend b.
template <class T>
T reduce_named(preduce::backend b, std::string_view op, const T* x, const T* y, std::size_t n,
               const preduce::options& opts) {
    if (op == "sum") return preduce::reduce(b, x, n, preduce::sum, opts);
    if (op == "sumsq") return preduce::reduce(b, x, n, preduce::sumsq, opts);
    return preduce::reduce(b, x, y, n, preduce::dot, opts);
}

} // namespace preduce_bench
