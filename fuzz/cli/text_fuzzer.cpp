// libFuzzer entry for the text reader (type inferred, as by default).
#include <cstddef>
#include <sstream>
#include <string>

#include "input/readers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        (void)preduce_cli::read_text(in, size, "fuzz.txt", std::nullopt);
    } catch (const preduce_cli::input_error&) {
    }
    return 0;
}
