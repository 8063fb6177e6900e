#include "preduce/openmp/info.hpp"

#include <omp.h>

#include "preduce/detail/routing/backend_library.hpp"

namespace preduce::openmp::info {
int default_threads() noexcept { return omp_get_max_threads(); }
} // namespace preduce::openmp::info

namespace preduce::openmp {
PREDUCE_DEFINE_BACKEND_LIBRARY
} // namespace preduce::openmp
