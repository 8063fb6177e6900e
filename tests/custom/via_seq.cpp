#include "custom/host_residency.hpp"
#include "preduce/seq/reduce.hpp"
#define PREDUCE_CUSTOM_BACKEND preduce::seq
#include "custom/cases.hpp"
