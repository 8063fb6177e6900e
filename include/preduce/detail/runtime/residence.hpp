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
// loaded an object since it last looked, which keeps the query a small part of a small
// call; with one, the query is the driver's (docs/front-end-costs.md).
memory_kind locate(const void* p) noexcept;

// Copies bytes from src, which may be device memory (through the loaded driver's cuMemcpy),
// to host memory dst. For callers that need a few elements of data a backend reads in place
// (the MPI layer's block fragments). Throws preduce::device_error when the copy fails.
void copy_to_host(void* dst, const void* src, std::size_t bytes);

} // namespace preduce::detail
