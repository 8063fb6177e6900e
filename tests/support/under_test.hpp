#pragma once
// What the shared body runs against. Each test executable links one definition of
// under_test() (the backend) and one of stage() (where the data lives: host memory as
// given, or a GPU copy for the CUDA residency variants), so the body is compiled once.
#include <cstddef>
#include <span>
#include <string>

#include "preduce/preduce.hpp"
#if defined(PREDUCE_TEST_MPI)
#include "preduce/mpi.hpp"
#include "support/mpi_part.hpp"
#endif

namespace preduce::test {

backend under_test();

// Returns a pointer with the same contents as [data, data + bytes) in the memory the
// executable tests (the pointer itself for host memory). Valid until the next call with
// the same slot; slots 0 and 1 hold the two inputs of a two-input reduction, slot 2 the
// offsets of a segmented one.
const void* stage(const void* data, std::size_t bytes, int slot = 0);
// An output of `bytes` in that memory (valid until the next call), and its contents copied
// back to host memory.
void* stage_output(std::size_t bytes);
void fetch(void* host, const void* staged, std::size_t bytes);
std::string residency();

template <class T, class Op>
auto run(std::span<const T> x, const Op& op, const options& opts = {}) {
    const auto* p = static_cast<const T*>(x.empty() ? static_cast<const void*>(x.data()) : stage(x.data(), x.size_bytes()));
#if defined(PREDUCE_TEST_MPI)
    // Every rank holds the whole sequence and passes its part of it (mpi_part.hpp).
    const part mine = mpi_part(x.size());
    return mpi::allreduce(MPI_COMM_WORLD, under_test(), p == nullptr ? p : p + mine.first, mine.count, op, opts);
#else
    return reduce(under_test(), p, x.size(), op, opts);
#endif
}
template <class T, class Op>
auto run2(std::span<const T> x, std::span<const T> y, const Op& op, const options& opts = {}) {
    const auto place = [](std::span<const T> v, int slot) {
        return static_cast<const T*>(v.empty() ? static_cast<const void*>(v.data()) : stage(v.data(), v.size_bytes(), slot));
    };
#if defined(PREDUCE_TEST_MPI)
    const part mine = mpi_part(x.size());
    const T* px = place(x, 0);
    const T* py = place(y, 1);
    return mpi::allreduce(MPI_COMM_WORLD, under_test(), px == nullptr ? px : px + mine.first,
                          py == nullptr ? py : py + mine.first, mine.count, op, opts);
#else
    return reduce(under_test(), place(x, 0), place(y, 1), x.size(), op, opts);
#endif
}
template <class T, class Op>
auto run(const std::vector<T>& x, const Op& op, const options& opts = {}) {
    return run(std::span<const T>(x), op, opts);
}

} // namespace preduce::test
