#pragma once
// SHA-256 (OpenSSL's EVP interface) of result bytes, so that runs, backends and files can be
// compared by one short string.
#include <cstddef>
#include <string>
#include <vector>

namespace preduce_cli {

// 64 lowercase hex digits, as sha256sum and Python's hashlib print them.
std::string sha256_hex(const std::vector<unsigned char>& bytes);

} // namespace preduce_cli
