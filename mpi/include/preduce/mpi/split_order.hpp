#pragma once
// precision::deterministic over MPI ranks, bit for bit the single-process result whatever
// the split: each rank turns its part of the sequence into a partial tree of the fixed
// order (preduce/detail/algorithm/fixed_order/parts.hpp), its complete aligned block runs summed by
// its backend with precision::deterministic, and a non-commutative MPI reduction appends
// the trees in rank order. The tree's shape, and why any grouping of the appends gives the
// same root bits, are parts.hpp's; this file only moves the trees between ranks.
#include <cstdint>
#include <memory>

#include "preduce/detail/algorithm/fixed_order/parts.hpp"
#include "preduce/precision.hpp"

namespace preduce::mpi::detail {

namespace fixed_order = ::preduce::detail::fixed_order;

// What a rank sends: trivially copyable, moved by MPI as bytes.
template <class A>
using split_state = fixed_order::partial_tree<precision::deterministic, A>;

// The MPI_User_function body: inout[i] = in[i] followed by inout[i] (MPI passes the
// lower-ranked operand as `in` for a non-commutative operation).
template <class A>
void append_states(const split_state<A>* in, split_state<A>* inout, int len) {
    for (int i = 0; i < len; ++i) {
        auto joined = std::make_unique<split_state<A>>(in[i]);  // tens of KiB: not on MPI's stack
        fixed_order::append(*joined, inout[i]);
        inout[i] = *joined;
    }
}

} // namespace preduce::mpi::detail
