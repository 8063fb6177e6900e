#pragma once
// The sums oracle for runs (by_key_cases.cu), compiled by the host compiler: the oracle's
// exact sums use long double, which nvcc would take for double in anything it sees as
// device code.
#include <cstddef>
#include <vector>

namespace preduce::test {

// How many runs [starts[r], starts[r + 1]) of values have a sum got[r] outside Higham's bound
// around the exact sum (oracle::sum_with_bound).
template <class T>
std::size_t sums_outside_bound(const std::vector<T>& values, const std::vector<std::size_t>& starts, const T* got);

} // namespace preduce::test
