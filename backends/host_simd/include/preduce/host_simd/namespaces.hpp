#pragma once
// host_simd's namespaces: the host folds every CPU backend runs (preduce::host_simd), their
// fixed-order block values (host_simd::fixed_order) and their segmented forms
// (host_simd::segmented). They are built on the front end's element and reducer traits
// (preduce::detail) and on the fixed order's definition (preduce::detail::fixed_order),
// whose names they use unqualified.
#include "preduce/detail/algorithm/fixed_order/order.hpp"

namespace preduce::host_simd {
using namespace ::preduce::detail;
}
namespace preduce::host_simd::fixed_order {
using namespace ::preduce::detail::fixed_order;
using ::preduce::detail::fixed_order::wide_t;  // not preduce::wide_t (reducers.hpp)
}
