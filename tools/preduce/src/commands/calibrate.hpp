#pragma once
// preduce --calibrate: measures the latency of every usable backend on host data (sum and argmin
// of float32, median call on the host clock, n = 2^4 .. 2^max, the backends in turn and each
// call on memory the calls before it did not read, as the benchmark's automatic/ rows time
// them) and writes the crossovers that backend::automatic reads (preduce/automatic.hpp) as a
// calibration file.
#include <cstdint>
#include <string>

namespace preduce_cli {

struct calibrate_settings {
    std::string path;       // where to write; empty: preduce::calibration_path()
    int max_log2 = 26;      // largest n measured, as log2
    int threads = 0;        // options::threads of the runs (0: each backend's default)
};

// Measures, writes the file, prints the table of medians and the rules; returns the exit status.
int run_calibration(const calibrate_settings& s);

} // namespace preduce_cli
