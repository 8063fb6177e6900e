// The seq backend's library object for the front end (detail/backend_library.hpp).
#include "preduce/seq/info.hpp"

#include "preduce/detail/backend_library.hpp"

namespace preduce::seq {
PREDUCE_DEFINE_BACKEND_LIBRARY
} // namespace preduce::seq
