#pragma once
// The values to reduce, held in their own element type: converting everything to
// double would change the very sums, minima and counts the tool is meant to check.
#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "input/element_type.hpp"

namespace preduce_cli {

// Alternatives in element_type order, so index() is the element type.
using dataset = std::variant<std::vector<std::int32_t>, std::vector<std::uint32_t>, std::vector<std::int64_t>,
                             std::vector<std::uint64_t>, std::vector<float>, std::vector<double>,
                             std::vector<std::int8_t>, std::vector<std::uint8_t>, std::vector<std::int16_t>,
                             std::vector<std::uint16_t>, std::vector<preduce::float16>,
                             std::vector<preduce::bfloat16>>;
static_assert(std::variant_size_v<dataset> == element_types.size());

inline element_type type_of(const dataset& d) { return static_cast<element_type>(d.index()); }

inline std::size_t size_of(const dataset& d) {
    return std::visit([](const auto& v) { return v.size(); }, d);
}

namespace detail {
template <std::size_t I>
dataset make(std::size_t n) {
    static_assert(std::is_same_v<std::variant_alternative_t<I, dataset>,
                                 std::vector<typename element_of<static_cast<element_type>(I)>::type>>);
    return dataset(std::in_place_index<I>, n);
}

template <std::size_t... I>
dataset make_of(element_type t, std::size_t n, std::index_sequence<I...>) {
    constexpr std::array<dataset (*)(std::size_t), sizeof...(I)> makers{&make<I>...};
    return makers[static_cast<std::size_t>(t)](n);
}
} // namespace detail

// n zero-initialised elements of type t, to be filled by a reader or generator.
inline dataset make_dataset(element_type t, std::size_t n) {
    return detail::make_of(t, n, std::make_index_sequence<std::variant_size_v<dataset>>{});
}

// Keys of --keys (many_results_mode.hpp): the 32- and 64-bit types only. Narrow keys are widened
// exactly (8/16-bit integers to int32/uint32, float16/bfloat16 to float32), which keeps
// which neighbours are equal, and so the runs, while reduce_by_key is compiled for 6 key
// types rather than 12.
using key_dataset = std::variant<std::vector<std::int32_t>, std::vector<std::uint32_t>, std::vector<std::int64_t>,
                                 std::vector<std::uint64_t>, std::vector<float>, std::vector<double>>;

} // namespace preduce_cli
