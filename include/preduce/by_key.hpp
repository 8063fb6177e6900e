#pragma once
// What reduce_by_key returns (segmented.hpp, and the cuda backend's header-only version).
#include <vector>

namespace preduce {

template <class K, class Result>
struct by_key_result {
    std::vector<K> keys;         // the first key of every run, in order
    std::vector<Result> values;  // the reduction of the run's values
};

} // namespace preduce
