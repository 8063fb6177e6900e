// A downstream MPI program: preduce::mpi through the installed package or the source tree.
#include <mpi.h>

#include <cstdio>
#include <vector>

#include <preduce/mpi.hpp>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    const std::vector<double> mine(1000, 0.5);
    const double s = preduce::mpi::allreduce(MPI_COMM_WORLD, preduce::backend::seq, mine, preduce::sum);
    const auto m = preduce::mpi::allreduce(MPI_COMM_WORLD, preduce::backend::seq, mine, preduce::argmax);
    const bool ok = s == 500.0 * ranks && m.index == 0;
    if (rank == 0) std::printf("mpi consumer: sum %g over %d ranks: %s\n", s, ranks, ok ? "ok" : "WRONG");
    MPI_Finalize();
    return ok ? 0 : 1;
}
