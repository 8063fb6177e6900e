#pragma once
// The values to reduce, held in their own element type: converting everything to
// double would change the very sums, minima and counts the tool is meant to check.
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <variant>
#include <vector>

#include "element_type.hpp"

namespace preduce_cli {

// Alternatives in element_type order, so index() is the element type.
using dataset = std::variant<std::vector<std::int32_t>, std::vector<std::uint32_t>, std::vector<std::int64_t>,
                             std::vector<std::uint64_t>, std::vector<float>, std::vector<double>>;

inline element_type type_of(const dataset& d) { return static_cast<element_type>(d.index()); }

inline std::size_t size_of(const dataset& d) {
    return std::visit([](const auto& v) { return v.size(); }, d);
}

namespace detail {
template <element_type E>
dataset make(std::size_t n) {
    constexpr auto index = static_cast<std::size_t>(E);
    static_assert(std::is_same_v<std::variant_alternative_t<index, dataset>,
                                 std::vector<typename element_of<E>::type>>);
    return dataset(std::in_place_index<index>, n);
}
} // namespace detail

// n zero-initialised elements of type t, to be filled by a reader or generator.
inline dataset make_dataset(element_type t, std::size_t n) {
    switch (t) {
    case element_type::i32: return detail::make<element_type::i32>(n);
    case element_type::u32: return detail::make<element_type::u32>(n);
    case element_type::i64: return detail::make<element_type::i64>(n);
    case element_type::u64: return detail::make<element_type::u64>(n);
    case element_type::f32: return detail::make<element_type::f32>(n);
    case element_type::f64: return detail::make<element_type::f64>(n);
    }
    return {};
}

} // namespace preduce_cli
