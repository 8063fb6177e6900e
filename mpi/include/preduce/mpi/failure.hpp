#pragma once
// A failure on one rank must not leave the others waiting in a collective, nor let them
// return: every preduce::mpi call first tells all ranks how each one fared (together with
// its element count, which the ranks need anyway), and when any rank failed, every rank
// throws the same exception type with the first failing rank's message.
#include <mpi.h>

#include <cstdint>
#include <exception>
#include <vector>

namespace preduce::mpi::detail {

struct rank_status {
    std::uint64_t n = 0;     // the rank's local element count
    std::uint64_t code = 0;  // 0: fine; otherwise which preduce exception it caught
};

std::uint64_t failure_code(const std::exception_ptr& e) noexcept;

// MPI_Allgather of every rank's status.
std::vector<rank_status> exchange(MPI_Comm comm, const rank_status& mine);

// Throws on every rank when some rank failed (statuses from exchange()); returns otherwise.
void settle(MPI_Comm comm, const std::vector<rank_status>& all, const std::exception_ptr& mine, const char* call);

// Refuses MPI not initialized (or finalized), a null communicator, and a root outside it,
// before any collective runs. Every rank checks the same things, so every rank throws.
void check_comm(MPI_Comm comm, int root, const char* call);

} // namespace preduce::mpi::detail
