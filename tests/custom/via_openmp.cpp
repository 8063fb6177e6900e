#include "custom/host_residency.hpp"
#include "preduce/openmp/reduce.hpp"
#define PREDUCE_CUSTOM_BACKEND preduce::openmp
#include "custom/cases.hpp"
