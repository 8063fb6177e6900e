#pragma once
// Registers the many-results rows (segments_bench.cu) with Google Benchmark.
void register_segments();
