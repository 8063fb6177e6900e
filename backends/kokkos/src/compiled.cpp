#include "preduce/kokkos/compiled.hpp"

#include "preduce/kokkos/reduce.hpp"

// Where Kokkos' reducers mean what preduce's combine means, the built-ins use them: every
// integer sum/prod/min/max/count. Float min/max never do (NaN); float sums do only while
// R::identity() has the bits of Kokkos' +0.0 (preduce's is -0.0, the true identity of +).
namespace preduce::kokkos::detail {
#define PREDUCE_EXPECT_KOKKOS_BUILTIN(T)                                                              \
    static_assert(builtin_for<sum_reducer<T>>() == kokkos_builtin::sum);                              \
    static_assert(builtin_for<wide_sum_reducer<T>>() == kokkos_builtin::sum);                         \
    static_assert(builtin_for<prod_reducer<T>>() == kokkos_builtin::prod);                            \
    static_assert(builtin_for<min_reducer<T>>() == kokkos_builtin::min);                              \
    static_assert(builtin_for<max_reducer<T>>() == kokkos_builtin::max);                              \
    static_assert(builtin_for<count_reducer<T>>() == kokkos_builtin::sum);                            \
    static_assert(builtin_for<argmin_reducer<T>>() == kokkos_builtin::none);                          \
    static_assert(builtin_for<argmax_reducer<T>>() == kokkos_builtin::none);
PREDUCE_EXPECT_KOKKOS_BUILTIN(std::int32_t)
PREDUCE_EXPECT_KOKKOS_BUILTIN(std::uint32_t)
PREDUCE_EXPECT_KOKKOS_BUILTIN(std::int64_t)
PREDUCE_EXPECT_KOKKOS_BUILTIN(std::uint64_t)
#undef PREDUCE_EXPECT_KOKKOS_BUILTIN
static_assert(builtin_for<prod_reducer<float>>() == kokkos_builtin::prod);
static_assert(builtin_for<count_reducer<double>>() == kokkos_builtin::sum);
static_assert(builtin_for<min_reducer<float>>() == kokkos_builtin::none);
static_assert(builtin_for<max_reducer<double>>() == kokkos_builtin::none);
static_assert(builtin_for<argmin_reducer<float>>() == kokkos_builtin::none);
} // namespace preduce::kokkos::detail

#define PREDUCE_BACKEND_NS ::preduce::kokkos
namespace preduce::kokkos::compiled {
PREDUCE_FOR_EACH_BUILTIN_REDUCER(PREDUCE_DEFINE_COMPILED_RUN)
}
