#pragma once
// What a backend's library hands the front end besides its compiled built-ins: one object,
// preduce::<name>::library, defined in that library (PREDUCE_DEFINE_BACKEND_LIBRARY, in the
// backend's src/info.cpp), with the answers of the backend's info namespace behind pointers.
// The front end refers to it, and to the compiled built-ins, only weakly
// (src/frontend/weak_backends.hpp): in a program that does not link a backend's library
// they are null, and the backend reports itself "not linked" (detail/routing/linking.hpp says how a
// program links one).
#include <string>

#include "preduce/options.hpp"

namespace preduce::detail {

struct backend_library {
    bool (*usable)() noexcept;
    std::string (*unusable_reason)();
    std::string (*detail)(const options&);
};

} // namespace preduce::detail

// Inside namespace preduce::<name>, where info:: is that backend's.
#define PREDUCE_DEFINE_BACKEND_LIBRARY                                                                \
    extern const ::preduce::detail::backend_library library;                                          \
    const ::preduce::detail::backend_library library{&info::usable, &info::unusable_reason, &info::detail};
