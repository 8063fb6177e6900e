// libFuzzer entry of the reduce fuzz body (reduce_body.hpp); also linked, without
// libFuzzer, into the corpus replay program (replay_main.cpp).
#include <cstddef>
#include <cstdint>

#include "reduce_body.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    preduce_fuzz::run_one(data, size);
    return 0;
}
