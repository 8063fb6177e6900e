#pragma once
// What the front end asks of every backend (detail/routing/backend_table.hpp), for openmp, in
// plain C++ (no OpenMP header needed to include it).
#include <string>

#include "preduce/options.hpp"

namespace preduce::openmp::info {

// Threads a reduction uses when options::threads is 0 (OMP_NUM_THREADS or the core count).
int default_threads() noexcept;

inline bool usable() noexcept { return true; }
inline std::string unusable_reason() { return {}; }
// "2 threads": the team a reduction with these options runs on.
inline std::string detail(const options& opts) {
    return std::to_string(opts.threads > 0 ? opts.threads : default_threads()) + " threads";
}
inline void check_options(const options&) {}
inline constexpr bool reads_device_memory = false;

} // namespace preduce::openmp::info
