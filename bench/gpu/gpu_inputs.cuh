#pragma once
// Device inputs for the GPU benchmark: one random pool per element type (never zeros),
// large enough that rotating the start offset defeats the 60 MB L2 of an H200.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace preduce::bench_gpu {

// Start of n elements of type T inside the pool for iteration `iteration`: consecutive
// iterations read disjoint windows while the pool allows, so small inputs come from DRAM.
// Slot 1 is a second pool of other values, for the second input of two-input rows (a
// dot product of one window with itself would read every byte once).
template <class T>
const T* window(std::size_t n, std::size_t iteration, int slot = 0);

// Releases every pool (between type families, to keep device memory for the next).
void release_pools();

// Ends the benchmark with "bench_gpu: what: CUDA's message" when e is an error.
void check(cudaError_t e, const char* what);

// p[0, n) of host memory (pageable, pinned or managed) filled on the host with floats in
// [-1, 1) from a xorshift sequence started at seed.
void fill_host(float* p, std::size_t n, std::uint64_t seed);

} // namespace preduce::bench_gpu
