#pragma once
// One exception hierarchy: every failure preduce reports derives from preduce::error,
// so a caller can catch one type and still tell the cases apart.
#include <stdexcept>
#include <string>

namespace preduce {

class error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The caller passed something preduce cannot reduce (null data, misaligned pointer,
// a predicate threshold the element type cannot represent, an unknown backend name).
class invalid_argument : public error {
public:
    using error::error;
};

// The backend was not compiled into this build, or cannot run on this machine.
class backend_unavailable : public error {
public:
    using error::error;
};

// A device or runtime call failed (CUDA, Kokkos); the library stays usable afterwards.
class device_error : public error {
public:
    using error::error;
};

class out_of_memory : public device_error {
public:
    using device_error::device_error;
};

} // namespace preduce
