#pragma once
// The sequential backend: the definitional left fold, identity first, one element at
// a time in index order. Every other backend is tested against it.
#include <cstddef>

#include "preduce/options.hpp"

namespace preduce::seq {

template <class R>
typename R::result_type reduce(const typename R::value_type* data, std::size_t n, const R& reducer,
                               const options& = {}) {
    auto acc = R::identity();
    for (std::size_t i = 0; i < n; ++i) acc = R::combine(acc, reducer.lift(data[i], i));
    return reducer.finish(acc);
}

} // namespace preduce::seq
