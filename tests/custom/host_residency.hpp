#pragma once
// Host backends read the caller's memory as it is.
#include <cstddef>
#include <string>
#include <vector>

namespace custom_test {
inline std::vector<std::string> residencies() { return {"host"}; }
inline const void* put(const void* host, std::size_t, int, std::size_t) { return host; }
} // namespace custom_test
