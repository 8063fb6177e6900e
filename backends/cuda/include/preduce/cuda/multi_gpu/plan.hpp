#pragma once
// The host-side plan of a reduction split over several GPUs (multi_gpu.cuh), in plain C++
// so that it is tested without a GPU (tests/multigpu, the plan cases):
//
//  - split(): contiguous parts of n elements for k GPUs, cut at 4096-element block
//    boundaries (the fixed order's blocks, so no block straddles two GPUs).
//  - fixed_share_of(): for one part of a fixed-order reduction, what its GPU computes (the
//    values of the blocks wholly inside it, and of the aligned groups of G blocks wholly
//    inside those, which are whole subtrees of the block tree) and which of its elements
//    belong to blocks it shares with a neighbour part (only reduce_parts, whose boundaries
//    the caller chooses, has those). The host joins all of it into the block tree with
//    preduce/detail/algorithm/fixed_order/parts.hpp.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "preduce/detail/algorithm/fixed_order/parts.hpp"

namespace preduce::cuda::detail::multi {

namespace fixed_order = ::preduce::detail::fixed_order;

struct range {
    std::size_t begin = 0, end = 0;  // [begin, end)
    std::size_t size() const noexcept { return end > begin ? end - begin : 0; }
    bool empty() const noexcept { return end <= begin; }
};

// k contiguous parts of [0, n), cut at block boundaries, as even as whole blocks allow; part
// i is empty when there are fewer blocks than parts.
inline std::vector<range> split(std::size_t n, std::size_t k) {
    const std::size_t m = fixed_order::block_count(n);
    std::vector<range> parts(k);
    for (std::size_t i = 0; i < k; ++i) {
        // m * i / k without overflow (m < 2^52 for any n that fits in memory)
        const std::size_t b0 = m / k * i + m % k * i / k;
        const std::size_t b1 = m / k * (i + 1) + m % k * (i + 1) / k;
        parts[i] = {std::min(n, b0 * fixed_order::block), std::min(n, b1 * fixed_order::block)};
    }
    return parts;
}

// What one part of a fixed-order reduction computes on its GPU, and what it leaves to the host.
struct fixed_share {
    range blocks;  // block indices wholly inside the part (fixed_order::whole_blocks)
    range groups;  // group indices (G blocks each, aligned) wholly inside `blocks`
    range lead;    // global element positions of the part before its whole blocks (shared)
    range trail;   // global element positions of the part after its whole blocks (shared)
    // Block values the part sends one by one (outside whole groups): [blocks.begin,
    // head_end) and [tail_begin, blocks.end).
    std::size_t head_end = 0, tail_begin = 0;
};

// The share of part [offset, offset + n) (n >= 1) of `total` elements; G: blocks per group,
// a power of two.
inline fixed_share fixed_share_of(std::size_t offset, std::size_t n, std::size_t total, std::size_t G) {
    const std::size_t B = fixed_order::block;
    const std::size_t m = fixed_order::block_count(total);
    const std::size_t end = offset + n;
    const fixed_order::block_range whole = fixed_order::whole_blocks(offset, n, total);
    fixed_share s;
    s.blocks = {whole.begin, whole.end};
    if (s.blocks.empty()) {  // no whole block: every element is shared
        s.lead = {offset, end};
        s.trail = {end, end};
        s.head_end = s.tail_begin = whole.begin;
        return s;
    }
    s.lead = {offset, std::min(end, whole.begin * B)};
    s.trail = {std::min(whole.end * B, end), end};
    const std::size_t gb = (whole.begin + G - 1) / G;
    const std::size_t ge = whole.end == m ? (m + G - 1) / G : whole.end / G;  // the last group may be clipped at m
    if (gb < ge) {
        s.groups = {gb, ge};
        s.head_end = gb * G;
        s.tail_begin = std::min(ge * G, m);
    } else {
        s.groups = {gb, gb};
        s.head_end = s.tail_begin = whole.end;
    }
    return s;
}

// What one part of a fixed-order reduction sends to the host: node values of the block tree
// (single blocks outside whole groups, and whole groups) and the lifted elements of the
// blocks it shares with its neighbours.
template <class A, class V>
struct fixed_result {
    std::vector<V> head, groups, tail;
    std::vector<A> lead, trail;
};

// Every part's share and result, in sequence order, joined into the value of the whole
// block tree (G blocks per group); false when they do not make up the whole sequence.
template <precision P, class A>
bool join(const std::vector<fixed_share>& shares, const std::vector<fixed_result<A, fixed_order::value_t<P, A>>>& results,
          std::size_t total, std::size_t G, fixed_order::value_t<P, A>& root) {
    const auto group_level = static_cast<std::uint64_t>(std::countr_zero(G));
    auto tree = fixed_order::empty_tree<P, A>(total, 0);
    tree->last = total;
    for (std::size_t i = 0; i < shares.size(); ++i) {
        const fixed_share& sh = shares[i];
        const auto& res = results[i];
        fixed_order::push_run(*tree, sh.lead.begin, res.lead.data(), res.lead.size());
        for (std::size_t k = 0; k < res.head.size(); ++k) fixed_order::push_node(*tree, {0, sh.blocks.begin + k, res.head[k]});
        for (std::size_t k = 0; k < res.groups.size(); ++k)
            fixed_order::push_node(*tree, {group_level, sh.groups.begin + k, res.groups[k]});
        for (std::size_t k = 0; k < res.tail.size(); ++k) fixed_order::push_node(*tree, {0, sh.tail_begin + k, res.tail[k]});
        fixed_order::push_run(*tree, sh.trail.begin, res.trail.data(), res.trail.size());
    }
    return fixed_order::root_value(*tree, root);
}

} // namespace preduce::cuda::detail::multi
