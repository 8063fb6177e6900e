#pragma once
// Several reductions in one pass over the data: fused_reducer<R...> lifts each element
// once per part and combines the parts side by side; its accumulator and result are
// packs (detail/core/pack.hpp), so `auto [s, c] = reduce(..., fused(sum, count_if(...)))`.
// It is commutative when every part is; otherwise every backend keeps operand order.
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "preduce/detail/core/hd.hpp"
#include "preduce/detail/core/pack.hpp"
#include "preduce/reducers.hpp"

namespace preduce {

template <class... R>
struct fused_reducer {
    static_assert(sizeof...(R) >= 1, "fused needs at least one operation");
    using first = typename detail::pack_element<0, pack<R...>>::type;
    using value_type = typename first::value_type;
    static_assert((std::is_same_v<typename R::value_type, value_type> && ...),
                  "the fused operations must read the same element type");
    using accumulator_type = pack<typename R::accumulator_type...>;
    using result_type = pack<typename R::result_type...>;
    static constexpr combine_kind kind = combine_kind::custom;
    static constexpr bool commutative = (is_commutative_v<R> && ...);
    static constexpr const char* name = "fused";
    static constexpr std::size_t size = sizeof...(R);
    template <std::size_t I>
    using part_t = typename detail::pack_element<I, pack<R...>>::type;

    pack<R...> parts;  // parts may carry state (count_if's predicate)

    PREDUCE_HD static constexpr accumulator_type identity() noexcept { return make_pack(R::identity()...); }
    PREDUCE_HD constexpr accumulator_type lift(value_type x, std::size_t i) const noexcept {
        return lift_(x, i, std::index_sequence_for<R...>{});
    }
    PREDUCE_HD static constexpr accumulator_type combine(accumulator_type a, accumulator_type b) noexcept {
        return combine_(a, b, std::index_sequence_for<R...>{});
    }
    PREDUCE_HD constexpr result_type finish(accumulator_type a) const noexcept {
        return finish_(a, std::index_sequence_for<R...>{});
    }
    // Each part's resume (reducers.hpp), where every part has one.
    template <class Result = result_type>
    constexpr accumulator_type resume(const Result& r, std::uint64_t offset) const {
        return resume_(r, offset, std::index_sequence_for<R...>{});
    }

private:
    template <std::size_t... I>
    PREDUCE_HD constexpr accumulator_type lift_(value_type x, std::size_t i, std::index_sequence<I...>) const noexcept {
        return make_pack(get<I>(parts).lift(x, i)...);
    }
    template <std::size_t... I>
    PREDUCE_HD static constexpr accumulator_type combine_(const accumulator_type& a, const accumulator_type& b,
                                                          std::index_sequence<I...>) noexcept {
        return make_pack(part_t<I>::combine(get<I>(a), get<I>(b))...);
    }
    template <std::size_t... I>
    PREDUCE_HD constexpr result_type finish_(const accumulator_type& a, std::index_sequence<I...>) const noexcept {
        return make_pack(get<I>(parts).finish(get<I>(a))...);
    }
    template <std::size_t... I>
    constexpr accumulator_type resume_(const result_type& r, std::uint64_t offset, std::index_sequence<I...>) const {
        return make_pack(get<I>(parts).resume(get<I>(r), offset)...);
    }
};

template <class T>
struct minmax_result {
    T min;
    T max;
    friend constexpr bool operator==(const minmax_result&, const minmax_result&) = default;
};

template <class T>
using minmax_reducer = fused_reducer<min_reducer<T>, max_reducer<T>>;

template <class T>
using sum_count_reducer = fused_reducer<sum_reducer<T>, count_reducer<T>>;

} // namespace preduce
