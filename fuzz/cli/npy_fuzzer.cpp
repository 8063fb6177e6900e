// libFuzzer entry for the .npy reader: any bytes must give a dataset or an
// input_error, never a crash, a sanitizer report or an allocation the file cannot back.
#include <cstddef>
#include <sstream>
#include <string>

#include "input/readers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    try {
        (void)preduce_cli::read_npy(in, size, "fuzz.npy");
    } catch (const preduce_cli::input_error&) {
    }
    return 0;
}
