#pragma once

#include "preduce/precision.hpp"

namespace preduce {

struct options {
    // Worker threads for host backends that take a count (openmp). 0: the backend's
    // default, i.e. OMP_NUM_THREADS or the number of cores.
    int threads = 0;

    // cuda: the cudaStream_t to run on; nullptr is the calling thread's default stream.
    // reduce() still returns the result, waiting on that stream only: once the result has
    // come back, all work queued on the stream before the call has run. (void* keeps this
    // header free of CUDA; for results left on the GPU see preduce::cuda::reduce_async.)
    void* stream = nullptr;

    // cuda: how many GPUs share one reduction: 1 (the current device only), k (the first k
    // visible devices) or 0 (all visible devices). Each GPU reduces a contiguous part and
    // the partial results combine on the host; with options::stream set, only 1 is allowed.
    // For host (pageable, pinned) and managed data; inputs under 2^20 elements run on the
    // current GPU alone. Data already on GPUs: preduce::cuda::reduce_parts (reduce.cuh).
    int gpus = 1;

    // Floating-point sums: fast (each backend's own order), deterministic (the same bits
    // on every backend, thread count and grid) or compensated (deterministic, and
    // accurate to about 2 ulp whatever n). See precision.hpp.
    preduce::precision precision = preduce::precision::fast;
};

} // namespace preduce
