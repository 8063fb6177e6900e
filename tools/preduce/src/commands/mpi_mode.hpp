#pragma once
// --mpi: run under mpirun; every rank reduces its part of the sequence with each chosen
// backend and preduce::mpi::allreduce combines them. Rank 0 reports the global result,
// each rank's local and allreduce times, and the slowest rank's per run.
#include <functional>
#include <string>

#include "commands/command_line.hpp"

namespace preduce_cli {

// Whether this process is a rank other than 0 of an MPI launcher (error lines are then
// left to rank 0, which prints the same one).
bool secondary_rank();

// With --mpi, MPI is initialized before the flags are even checked and finalized on the
// way out, so that every error is printed by rank 0 before any rank exits: mpirun ends
// the whole job as soon as one rank exits with a non-zero status.
class mpi_session {
public:
    explicit mpi_session(bool wanted);
    ~mpi_session();
    mpi_session(const mpi_session&) = delete;
    mpi_session& operator=(const mpi_session&) = delete;

private:
    bool ours_ = false;
};

// Whether the command line asks for --mpi (before it is parsed).
bool wants_mpi(int argc, char** argv);

// fail(message, status) prints one error line and returns status.
int run_mpi(const settings& s, const std::function<int(const std::string&, int)>& fail);

} // namespace preduce_cli
