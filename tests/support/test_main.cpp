// The main of the plain Catch2 programs: every case, as Catch2's own main runs them.
#include "support/catch_session.hpp"

int main(int argc, char* argv[]) { return preduce::test::run_catch(argc, argv); }
