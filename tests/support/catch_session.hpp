#pragma once
// The Catch2 session of a test program whose main does more than run the cases (see
// catch_session.cpp, which holds Catch2's implementation).

namespace preduce::test {

// Runs the cases the command line selects, as Catch2's own main does; returns its status.
int run_catch(int argc, char* argv[]);

} // namespace preduce::test
