// Runner for the tests under mpirun: every rank runs the same cases in the same order on
// the same data (rank 0's seed goes to all), and every rank exits with the worst status
// of any rank, so mpirun reports a failure on any rank.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "support/catch_session.hpp"
#include "support/data.hpp"
#include "support/under_test.hpp"

int main(int argc, char* argv[]) {
    MPI_Init(&argc, &argv);
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    unsigned long long seed = rank == 0 ? preduce::test::seed() : 0;
    MPI_Bcast(&seed, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    setenv("PREDUCE_TEST_SEED", std::to_string(seed).c_str(), 1);  // before any rank's first seed() call
    if (rank != 0 && preduce::test::seed() != seed) std::abort();

    bool listing = false;
    for (int i = 1; i < argc; ++i) listing = listing || std::strncmp(argv[i], "--list", 6) == 0;
    const preduce::backend b = preduce::test::under_test();
    int status = 0;
    if (!listing && !preduce::is_usable(b)) {
        if (rank == 0)
            std::printf("SKIPPED: backend '%s' cannot run here: %s\n", std::string(preduce::name(b)).c_str(),
                        preduce::unusable_reason(b).c_str());
        status = 77;
    } else {
        if (rank == 0 && !listing)
            std::printf("preduce::mpi over %d ranks, local backend %s, seed %llu (set PREDUCE_TEST_SEED to repeat)\n",
                        ranks, preduce::describe(b).c_str(), seed);
        status = preduce::test::run_catch(argc, argv);
        if (status != 0) std::printf("rank %d of %d: %d failed test cases\n", rank, ranks, status);
    }
    int worst = 0;
    MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return worst;
}
