#pragma once
// Under mpirun, the shared body's run() hands preduce::mpi each rank's part of the input.
// The split changes from call to call (every rank makes the same calls, so every rank
// agrees on it): even, uneven, everything on one rank, empty ranks, cuts inside blocks.
#include <cstddef>

namespace preduce::test {

struct part {
    std::size_t first;
    std::size_t count;
};

// This rank's part of [0, n) for the next call (advances the split pattern).
part mpi_part(std::size_t n);

// This rank's part of [0, n) under split pattern `pattern` of `ranks` ranks.
part split(std::size_t n, int rank, int ranks, unsigned pattern);

} // namespace preduce::test
