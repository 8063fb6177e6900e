#pragma once
// Run-time knobs of preduce_bench. They come from our own command-line flags (parsed
// after Google Benchmark has taken its --benchmark_* flags) or, when a flag is absent,
// from an environment variable of the same meaning:
//
//   --sizes=MIN:MAX[:STEP]   log2 of the element counts; default 10:26:2 (2^10, 2^12, ..., 2^26)
//                            env PREDUCE_BENCH_SIZES
//   --buffer_mib=N           size of each per-type input buffer, default 256 (8x the 32 MiB L3
//                            of the machine this was written on; grown to the largest n)
//                            env PREDUCE_BENCH_BUFFER_MIB
//   --in_cache               read the same n elements every iteration (the data then sits in
//                            L1/L2/L3 as far as it fits) instead of rotating through the buffer
//                            env PREDUCE_BENCH_IN_CACHE=1
//   --hugepages              madvise(MADV_HUGEPAGE) the input buffers (transparent huge pages,
//                            if the kernel allows them); default: ordinary pages, as a user's
//                            std::vector gets them.  env PREDUCE_BENCH_HUGEPAGES=1
#include <cstddef>
#include <string>
#include <vector>

namespace preduce_bench {

struct config {
    int min_log2 = 10;
    int max_log2 = 26;
    int step_log2 = 2;
    std::size_t buffer_bytes = std::size_t{256} << 20;
    bool in_cache = false;
    bool hugepages = false;

    std::vector<std::size_t> sizes() const;
    std::size_t max_n() const { return std::size_t{1} << max_log2; }
    std::string describe() const;
};

// Removes the flags it understands from argv (so ReportUnrecognizedArguments sees only
// what nobody understood). Throws std::invalid_argument on a malformed value.
config parse_config(int& argc, char** argv);

// The one configuration of this process, set once in main() before any benchmark runs.
const config& current();
void set_current(const config& c);

} // namespace preduce_bench
