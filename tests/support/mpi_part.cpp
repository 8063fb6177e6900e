#include "support/mpi_part.hpp"

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace preduce::test {

part split(std::size_t n, int rank, int ranks, unsigned pattern) {
    const auto p = static_cast<std::size_t>(ranks);
    std::vector<std::size_t> cut(p + 1, 0);  // rank r gets [cut[r], cut[r+1])
    cut[p] = n;
    switch (pattern % 6) {
    case 0:  // even
        for (std::size_t r = 1; r < p; ++r) cut[r] = n * r / p;
        break;
    case 1:  // rank r gets a share proportional to r + 1
        for (std::size_t r = 1; r < p; ++r) cut[r] = n * (r * (r + 1) / 2) / (p * (p + 1) / 2);
        break;
    case 2:  // everything on the last rank
        break;
    case 3:  // everything on rank 0
        for (std::size_t r = 1; r < p; ++r) cut[r] = n;
        break;
    case 4:  // odd cuts just past block and chunk boundaries, empty middle ranks
        for (std::size_t r = 1; r < p; ++r) cut[r] = n < 4097 ? n / 2 : 4097;
        break;
    default: {  // pseudo-random cuts, sorted (a rank may be empty)
        std::uint64_t x = 0x9E3779B97F4A7C15ull * (pattern + 1);
        for (std::size_t r = 1; r < p; ++r) {
            x ^= x >> 31;
            x *= 0xBF58476D1CE4E5B9ull;
            x ^= x >> 29;
            cut[r] = n == 0 ? 0 : static_cast<std::size_t>(x % (n + 1));
        }
        for (std::size_t i = 1; i < p; ++i)  // insertion sort: p <= a handful
            for (std::size_t j = i; j > 1 && cut[j] < cut[j - 1]; --j) std::swap(cut[j], cut[j - 1]);
        break;
    }
    }
    const auto r = static_cast<std::size_t>(rank);
    return {cut[r], cut[r + 1] - cut[r]};
}

part mpi_part(std::size_t n) {
    static unsigned calls = 0;
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    return split(n, rank, ranks, calls++);
}

} // namespace preduce::test
