#include "plain_kokkos.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>

namespace preduce::bench_gpu {

// The lambdas capture raw pointers, not Views: with Kokkos 4.6.99 built by nvcc 13 in C++20
// mode, a View captured by a device lambda or held by a functor reaches the kernel with its
// extents and the members after it wrong (scripts/kokkos/view_layout.cpp shows it), so a
// View here would read out of bounds.
namespace {
using policy = Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::IndexType<std::int64_t>>;

void require_initialized() {
    if (!Kokkos::is_initialized())
        throw std::logic_error("plain_kokkos: Kokkos is not initialized (call the kokkos backend first)");
}
} // namespace

float plain_kokkos_sum(const float* x, std::size_t n) {
    require_initialized();
    float s = 0;
    Kokkos::parallel_reduce(
        "plain_kokkos_sum", policy(0, static_cast<std::int64_t>(n)),
        KOKKOS_LAMBDA(std::int64_t i, float& acc) { acc += x[i]; }, Kokkos::Sum<float>(s));
    return s;
}

float plain_kokkos_max(const float* x, std::size_t n) {
    require_initialized();
    float m = 0;
    Kokkos::parallel_reduce(
        "plain_kokkos_max", policy(0, static_cast<std::int64_t>(n)),
        KOKKOS_LAMBDA(std::int64_t i, float& acc) { acc = x[i] > acc ? x[i] : acc; }, Kokkos::Max<float>(m));
    return m;
}

} // namespace preduce::bench_gpu
