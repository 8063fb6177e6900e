#pragma once
// The SIMD memory-read probe: the speed limit of any reduction that must read every
// byte once. It streams the bytes through 4 independent 256-bit XOR accumulators (AVX2,
// chosen at run time with __builtin_cpu_supports; SSE2 128-bit otherwise; a plain
// 64-bit loop off x86), so the arithmetic is never the bottleneck, and returns the XOR
// so the loads cannot be optimised away. With threads > 1 it is an OpenMP parallel
// region over `threads` contiguous, 64-byte-aligned blocks, the same split a
// schedule(static) reduction uses.
#include <cstddef>
#include <cstdint>

namespace preduce_bench {

std::uint64_t read_probe(const void* data, std::size_t bytes, int threads);

// "avx2", "sse2" or "scalar": the kernel read_probe uses on this machine.
const char* read_probe_isa();

} // namespace preduce_bench
