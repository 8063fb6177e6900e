#pragma once
// Failures of the tool itself, told apart by exit status: a usage error (bad flags)
// exits 2 like CLI11's own parse errors, an input error (unreadable or malformed
// file) exits 1 like the library's preduce::error.
#include <stdexcept>

namespace preduce_cli {

class usage_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class input_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

} // namespace preduce_cli
