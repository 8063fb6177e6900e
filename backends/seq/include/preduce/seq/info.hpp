#pragma once
// What the front end asks of every backend (detail/routing/backend_table.hpp), for seq.
#include <string>

#include "preduce/options.hpp"

namespace preduce::seq::info {
inline bool usable() noexcept { return true; }
inline std::string unusable_reason() { return {}; }
inline std::string detail(const options&) { return {}; }
inline void check_options(const options&) {}
inline constexpr bool reads_device_memory = false;
} // namespace preduce::seq::info
