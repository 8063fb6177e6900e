#pragma once
// Registration of benchmark rows. main() walks type x size and calls these, so rows of
// one (type, n) sit next to each other in the output: the anchors, then every
// operation on every backend. A new family of rows (another anchor, a backend-specific
// variant, a CUDA ladder) is one more register_* function called from main().
//
// Names ("/real_time" is appended by Google Benchmark):
//   reduce/<backend>/<op>/<type>/<n>          preduce::reduce(backend, span, op); the narrow
//                                             types (i8 u8 i16 u16 f16 bf16) at sum and max
//   anchor/std_accumulate/<type>/<n>          std::accumulate, one thread
//   anchor/std_reduce_par_unseq/<type>/<n>    std::reduce(std::execution::par_unseq) (TBB)
//   anchor/read_probe/threads:<t>/<type>/<n>  SIMD read of the same bytes (read_probe.hpp)
//   segments/<backend>/sum/f32/<n>/seg:<k>    reduce_batches, n / k results (segment_rows.cpp)
//   columns/<backend>/sum/f32/<r>x<c>         reduce_axes over axis 0
//   latency/<backend>/<op>/f32/<n>            host wall clock per call, median_us (latency_rows.cpp)
//   automatic/<op>/f32/<n>                    auto and every backend in turn, <backend>_us
//   vs_probe/openmp/sum/<type>/<n>            openmp's sum and the read probe in turn, of_probe
//                                             (probe_pair_rows.cpp; f32 and the narrow types)
// Every row reports bytes_per_second = n * sizeof(type) per iteration.
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <preduce/backend.hpp>

namespace preduce_bench {

// Joins parts with '/' and appends n.
std::string row_name(std::initializer_list<std::string_view> parts, std::size_t n);

// Common settings of every row: real time (the work is multithreaded), microseconds.
benchmark::internal::Benchmark* configure(benchmark::internal::Benchmark* b);

inline void set_throughput(benchmark::State& st, std::size_t n, std::size_t elem_bytes) {
    const auto it = static_cast<std::int64_t>(st.iterations());
    st.SetBytesProcessed(it * static_cast<std::int64_t>(n * elem_bytes));
    st.SetItemsProcessed(it * static_cast<std::int64_t>(n));
}


template <class T>
void register_reduce_rows(std::size_t n, std::span<const preduce::backend> backends);

template <class T>
void register_anchor_rows(std::size_t n);

// Latency rows: the median call of every backend at n = 2^0, 2^2, ..., and backend::automatic
// against every backend, interleaved (latency_rows.cpp).
void register_latency_rows(std::span<const preduce::backend> backends);
void register_automatic_rows(std::span<const preduce::backend> backends);
void register_precision_rows(std::span<const preduce::backend> backends);

// The narrow element types, sum and max (reduce_rows.cpp).
template <class T>
void register_narrow_rows(std::size_t n, std::span<const preduce::backend> backends);

// openmp's sum beside the read probe, interleaved in one row (probe_pair_rows.cpp).
template <class T>
void register_probe_pair_rows(std::size_t n, std::span<const preduce::backend> backends);

// Many results per call (float32): row sums of batches and column sums (segment_rows.cpp).
void register_segment_rows(std::size_t n, std::span<const preduce::backend> backends);

} // namespace preduce_bench
