#include "preduce/openmp/info.hpp"

#include <omp.h>

namespace preduce::openmp {
int default_threads() noexcept { return omp_get_max_threads(); }
} // namespace preduce::openmp
