// Catch2's implementation (sessions, reporters, matchers), compiled once for every test
// program here: it is the slowest file to compile, about a minute, and over a minute under
// the sanitizers. The programs' own mains (test_main.cpp, backend_main.cpp, mpi_main.cpp,
// reliability/huge_inputs.cpp) decide whether to run and then call run_catch.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "support/catch_session.hpp"

namespace preduce::test {

int run_catch(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }

} // namespace preduce::test
