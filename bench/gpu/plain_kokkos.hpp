#pragma once
// The anchor of the kokkos/ rows (latency_bench.cu): Kokkos' own parallel_reduce with its
// built-in reducer over device data, as a Kokkos user writes it without preduce. Built only
// when the kokkos backend runs on a CUDA-enabled Kokkos (plain_kokkos.cpp, compiled with
// Kokkos' compiler). Kokkos must be initialized (preduce's kokkos backend does it on first use).
#include <cstddef>

namespace preduce::bench_gpu {

// Kokkos::parallel_reduce over a RangePolicy of n with Kokkos::Sum / Kokkos::Max into a
// host scalar (which waits for the result), on Kokkos::DefaultExecutionSpace; x is device
// or managed memory.
float plain_kokkos_sum(const float* x, std::size_t n);
float plain_kokkos_max(const float* x, std::size_t n);

} // namespace preduce::bench_gpu
