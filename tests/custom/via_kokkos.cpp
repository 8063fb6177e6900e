#include "custom/host_residency.hpp"
#include "preduce/kokkos/reduce.hpp"
#define PREDUCE_CUSTOM_BACKEND preduce::kokkos
#include "custom/cases.hpp"
