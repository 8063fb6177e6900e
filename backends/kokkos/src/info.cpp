// What the kokkos backend tells the front end (info.hpp, and its library object), and which
// built-ins take Kokkos' own reducers (checked at compile time).
#include "preduce/kokkos/info.hpp"

#include "preduce/detail/routing/backend_library.hpp"
#include "preduce/detail/backend_contract/builtins.hpp"
#include "preduce/kokkos/reduce.hpp"

namespace preduce::kokkos::info {
const char* execution_space_name() noexcept { return Kokkos::DefaultExecutionSpace::name(); }
bool runs_on_host() noexcept { return is_host_space<execution_space>; }
int kokkos_version() noexcept { return KOKKOS_VERSION; }
} // namespace preduce::kokkos::info

namespace preduce::kokkos {
PREDUCE_DEFINE_BACKEND_LIBRARY
} // namespace preduce::kokkos

// Where Kokkos' reducers mean what preduce's combine means, the built-ins use them: every
// integer sum/prod/min/max/count, and the integer transforms that accumulate like sum
// (sumsq, asum, dot). Float min/max never do (NaN); float sums (and float sumsq, asum,
// dot) do only while R::identity() has the bits of Kokkos' +0.0 (preduce's is -0.0, the
// true identity of +). Structured accumulators (argmin/argmax, moments, fused packs such
// as minmax) always take combine_reducer.
namespace preduce::kokkos::detail {
#define PREDUCE_EXPECT_KOKKOS_BUILTIN(T)                                                              \
    static_assert(builtin_for<sum_reducer<T>>() == kokkos_builtin::sum);                              \
    static_assert(builtin_for<wide_sum_reducer<T>>() == kokkos_builtin::sum);                         \
    static_assert(builtin_for<prod_reducer<T>>() == kokkos_builtin::prod);                            \
    static_assert(builtin_for<min_reducer<T>>() == kokkos_builtin::min);                              \
    static_assert(builtin_for<max_reducer<T>>() == kokkos_builtin::max);                              \
    static_assert(builtin_for<count_reducer<T>>() == kokkos_builtin::sum);                            \
    static_assert(builtin_for<sumsq_reducer<T>>() == kokkos_builtin::sum);                            \
    static_assert(builtin_for<asum_reducer<T>>() == kokkos_builtin::sum);                             \
    static_assert(builtin_for<dot_reducer<T>>() == kokkos_builtin::sum);                              \
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
static_assert(builtin_for<sumsq_reducer<float>>() == kokkos_builtin::none);
static_assert(builtin_for<dot_reducer<double>>() == kokkos_builtin::none);

#define PREDUCE_EXPECT_COMBINE_REDUCER(T)                                                             \
    static_assert(builtin_for<moments_reducer<T>>() == kokkos_builtin::none);                         \
    static_assert(builtin_for<minmax_reducer<T>>() == kokkos_builtin::none);                          \
    static_assert(builtin_for<sum_count_reducer<T>>() == kokkos_builtin::none);
PREDUCE_EXPECT_COMBINE_REDUCER(std::int32_t)
PREDUCE_EXPECT_COMBINE_REDUCER(double)
#undef PREDUCE_EXPECT_COMBINE_REDUCER

// Every compiled reducer is commutative, so none of them takes the ordered path
// (detail/ordered.hpp), which gives up Kokkos' reduction for operand order.
#define PREDUCE_EXPECT_COMMUTATIVE(R) static_assert(is_commutative_v<R>);
PREDUCE_FOR_EACH_BUILTIN_REDUCER(PREDUCE_EXPECT_COMMUTATIVE)
#undef PREDUCE_EXPECT_COMMUTATIVE
} // namespace preduce::kokkos::detail
