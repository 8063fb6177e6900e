// The seq backend's library object for the front end (detail/routing/backend_library.hpp).
#include "preduce/seq/info.hpp"

#include "preduce/detail/routing/backend_library.hpp"

namespace preduce::seq {
PREDUCE_DEFINE_BACKEND_LIBRARY
} // namespace preduce::seq
