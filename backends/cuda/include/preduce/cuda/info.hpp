#pragma once
// Plain C++ view of the CUDA backend's state, for the front end (no CUDA headers).
#include <string>

namespace preduce::cuda {

// A usable GPU is visible: the runtime loads and reports at least one device.
bool device_available() noexcept;

// Why device_available() is false ("no CUDA driver", "no device", ...); empty when true.
std::string unavailable_reason();

// Name of the current device, e.g. "NVIDIA H200"; empty without one.
std::string device_name();

} // namespace preduce::cuda
