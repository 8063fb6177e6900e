#include "preduce/mpi/failure.hpp"

#include <string>

#include "preduce/errors.hpp"

namespace preduce::mpi::detail {

namespace {
enum : std::uint64_t { ok = 0, invalid = 1, unavailable = 2, no_memory = 3, device = 4, other_preduce = 5, foreign = 6 };

[[noreturn]] void throw_as(std::uint64_t code, const std::string& message) {
    switch (code) {
    case invalid: throw invalid_argument(message);
    case unavailable: throw backend_unavailable(message);
    case no_memory: throw out_of_memory(message);
    case device: throw device_error(message);
    default: throw error(message);
    }
}

std::string what_of(const std::exception_ptr& e) {
    try {
        std::rethrow_exception(e);
    } catch (const std::exception& x) {
        return x.what();
    } catch (...) {
        return "an exception that is not a std::exception";
    }
}
} // namespace

std::uint64_t failure_code(const std::exception_ptr& e) noexcept {
    if (!e) return ok;
    try {
        std::rethrow_exception(e);
    } catch (const invalid_argument&) {
        return invalid;
    } catch (const backend_unavailable&) {
        return unavailable;
    } catch (const out_of_memory&) {
        return no_memory;
    } catch (const device_error&) {
        return device;
    } catch (const error&) {
        return other_preduce;
    } catch (...) {
        return foreign;
    }
}

std::vector<rank_status> exchange(MPI_Comm comm, const rank_status& mine) {
    int size = 0;
    MPI_Comm_size(comm, &size);
    std::vector<rank_status> all(static_cast<std::size_t>(size));
    MPI_Allgather(&mine, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, comm);
    return all;
}

void settle(MPI_Comm comm, const std::vector<rank_status>& all, const std::exception_ptr& mine, const char* call) {
    int first = -1;
    for (std::size_t r = 0; r < all.size() && first < 0; ++r)
        if (all[r].code != ok) first = static_cast<int>(r);
    if (first < 0) return;
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    // The first failing rank's message, to everyone.
    std::string message = rank == first ? what_of(mine) : std::string();
    unsigned long long length = message.size();
    MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, first, comm);
    message.resize(length);
    MPI_Bcast(message.data(), static_cast<int>(length), MPI_CHAR, first, comm);
    throw_as(all[static_cast<std::size_t>(first)].code, std::string(call) + ": rank " + std::to_string(first) + " of " +
                                                             std::to_string(all.size()) + " failed: " + message);
}

void check_comm(MPI_Comm comm, int root, const char* call) {
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (!initialized || finalized)
        throw invalid_argument(std::string(call) + ": MPI is " + (finalized ? "finalized" : "not initialized") +
                               "; call it between MPI_Init and MPI_Finalize");
    if (comm == MPI_COMM_NULL) throw invalid_argument(std::string(call) + ": the communicator is MPI_COMM_NULL");
    int size = 0;
    MPI_Comm_size(comm, &size);
    if (root >= size || root < -1)
        throw invalid_argument(std::string(call) + ": root " + std::to_string(root) + " is not a rank of this " +
                               std::to_string(size) + "-rank communicator");
}

} // namespace preduce::mpi::detail
