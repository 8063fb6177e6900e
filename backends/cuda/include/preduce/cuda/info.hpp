#pragma once
// What the front end asks of every backend (detail/backend_table.hpp), for cuda, in plain
// C++ (no CUDA headers).
#include <string>

#include "preduce/options.hpp"

namespace preduce::cuda::info {

// A usable GPU is visible: the runtime loads and reports at least one device.
bool usable() noexcept;

// Why usable() is false ("no CUDA driver", "no device", ...); empty when true.
std::string unusable_reason();

// Name of the current device, e.g. "NVIDIA H200"; "no device" without one.
std::string detail(const options& opts);

inline constexpr bool reads_device_memory = true;

} // namespace preduce::cuda::info
