#include "plain_kokkos.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <stdexcept>

namespace preduce::bench_gpu {

namespace {
using device_view = Kokkos::View<const float*, Kokkos::DefaultExecutionSpace::memory_space,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
using policy = Kokkos::RangePolicy<Kokkos::DefaultExecutionSpace, Kokkos::IndexType<std::int64_t>>;

device_view view_of(const float* x, std::size_t n) {
    if (!Kokkos::is_initialized())
        throw std::logic_error("plain_kokkos: Kokkos is not initialized (call the kokkos backend first)");
    return device_view(x, n);
}
} // namespace

float plain_kokkos_sum(const float* x, std::size_t n) {
    const device_view v = view_of(x, n);
    float s = 0;
    Kokkos::parallel_reduce(
        "plain_kokkos_sum", policy(0, static_cast<std::int64_t>(n)),
        KOKKOS_LAMBDA(std::int64_t i, float& acc) { acc += v(i); }, Kokkos::Sum<float>(s));
    return s;
}

float plain_kokkos_max(const float* x, std::size_t n) {
    const device_view v = view_of(x, n);
    float m = 0;
    Kokkos::parallel_reduce(
        "plain_kokkos_max", policy(0, static_cast<std::int64_t>(n)),
        KOKKOS_LAMBDA(std::int64_t i, float& acc) { acc = v(i) > acc ? v(i) : acc; }, Kokkos::Max<float>(m));
    return m;
}

} // namespace preduce::bench_gpu
