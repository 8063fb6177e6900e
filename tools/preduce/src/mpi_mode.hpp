#pragma once
// --mpi: run under mpirun; every rank reduces its part of the sequence with each chosen
// backend and preduce::mpi::allreduce combines them. Rank 0 reports the global result,
// each rank's local and allreduce times, and the slowest rank's per run.
#include <functional>
#include <string>

#include "command_line.hpp"

namespace preduce_cli {

// Whether this process is a rank other than 0 of an MPI launcher (error lines are then
// left to rank 0, which prints the same one).
bool secondary_rank();

// fail(message, status) prints one error line and returns status.
int run_mpi(const settings& s, const std::function<int(const std::string&, int)>& fail);

} // namespace preduce_cli
