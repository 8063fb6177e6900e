#pragma once
// The reduce fuzz body: decodes one input (fuzz_case.hpp), runs the reduction it names on
// every host backend of this build through the compiled front end, and checks each
// result against the shared semantics (README's table) and the oracle of the test suite
// (tests/oracle/include/oracle/oracle.hpp). On any disagreement it prints one line naming the case,
// the backend and what differed, and aborts. Called by the libFuzzer entry
// (reduce_fuzzer.cpp) and by the corpus replay of the test suite (replay_main.cpp).
#include <cstddef>
#include <cstdint>

namespace preduce_fuzz {

void run_one(const std::uint8_t* data, std::size_t size);

} // namespace preduce_fuzz
