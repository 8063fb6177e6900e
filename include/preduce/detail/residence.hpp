#pragma once
// Where a pointer lives, without linking CUDA: host backends refuse device memory
// with an exception instead of crashing on it, in every build of preduce.
#include <cstddef>

namespace preduce::detail {

// Where an address lives, as far as this process can tell.
enum class memory_kind {
    host,     // ordinary host memory (or no GPU runtime is loaded at all)
    pinned,   // host memory pinned by CUDA (cudaMallocHost, cudaHostRegister): the GPU reads it too
    managed,  // CUDA managed memory: reachable from host and device
    device,   // CUDA device memory: the host cannot read it
};

// Asks the CUDA driver (libcuda, when this process has loaded it: a CUDA-enabled Kokkos,
// the cuda backend, the application) about p; host when no driver is loaded, since then
// no device memory can exist. Works in any build (with or without the cuda backend) and
// needs no CUDA headers. Without a driver it looks for one again only when the process has
// loaded an object since it last looked: 0.013 us a call on a 2-core x86 machine (0.07-0.13
// when it looked every time). With one, the driver's query: 0.19 us on the H200 machine's
// host (bench/studies/automatic_overhead.cpp).
memory_kind locate(const void* p) noexcept;

// Copies bytes from src, which may be device memory (through the loaded driver's cuMemcpy),
// to host memory dst. For callers that need a few elements of data a backend reads in place
// (the MPI layer's block fragments). Throws preduce::device_error when the copy fails.
void copy_to_host(void* dst, const void* src, std::size_t bytes);

} // namespace preduce::detail
