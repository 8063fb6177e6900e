#pragma once
// The latency rows of the GPU benchmark (latency_bench.cu): host wall clock around whole
// calls, preduce's front end next to CUB + a copy of the result, n = 2^0 .. 2^30.
namespace preduce::bench_gpu {

void register_latency();
// precision/<op>/<type>/<n>: fast, deterministic and compensated side by side, n >= 2^20.
void register_precision();
void release_latency_inputs();

} // namespace preduce::bench_gpu
