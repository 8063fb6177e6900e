#include "preduce/openmp/info.hpp"

#include <omp.h>

namespace preduce::openmp::info {
int default_threads() noexcept { return omp_get_max_threads(); }
} // namespace preduce::openmp::info
