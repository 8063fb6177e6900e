#pragma once
// What the front end asks of every backend (detail/routing/backend_table.hpp), for cuda, in plain
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

// Options only this machine can judge, refused with invalid_argument whatever the input's
// size: options::gpus above the visible GPUs, and options::stream with gpus != 1.
void check_options(const options& opts);

// GPUs visible to the runtime (CUDA_VISIBLE_DEVICES selects them); 0 without a driver.
int visible_devices() noexcept;

inline constexpr bool reads_device_memory = true;

} // namespace preduce::cuda::info
