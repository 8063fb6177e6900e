#pragma once

namespace preduce::openmp {
// Threads a reduction uses when options::threads is 0 (OMP_NUM_THREADS or the core count).
int default_threads() noexcept;
} // namespace preduce::openmp
