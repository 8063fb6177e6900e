#pragma once
// What a reduction reads. One array is a plain pointer; two arrays read side by side
// (dot products, user transforms of pairs) are a zip_source, whose element i is
// zip_value{x[i], y[i]}. Every backend reads its input only through src[i] and src + k,
// so the same folds serve both shapes.
#include <cstddef>

#include "preduce/detail/core/hd.hpp"

namespace preduce {

template <class A, class B>
struct zip_value {
    A first;
    B second;
    friend constexpr bool operator==(const zip_value&, const zip_value&) = default;
};

template <class A, class B>
struct zip_source {
    const A* first;
    const B* second;
    PREDUCE_HD constexpr zip_value<A, B> operator[](std::size_t i) const { return {first[i], second[i]}; }
    PREDUCE_HD constexpr zip_source operator+(std::size_t k) const { return {first + k, second + k}; }
};

namespace detail {
template <class V>
struct source_of { using type = const V*; };
template <class A, class B>
struct source_of<zip_value<A, B>> { using type = zip_source<A, B>; };
} // namespace detail

// The source type a reducer R reads: const T* for value_type T, zip_source for zip values.
template <class R>
using source_t = typename detail::source_of<typename R::value_type>::type;

template <class S>
inline constexpr bool is_zip_source_v = false;
template <class A, class B>
inline constexpr bool is_zip_source_v<zip_source<A, B>> = true;

} // namespace preduce
