#pragma once
// precision::deterministic over a sequence split into parts (MPI ranks), bit for bit the
// single-process result whatever the split. The fixed order (preduce/detail/deterministic.hpp)
// is a function of global element positions: 4096-element blocks, each folded by 32 lanes,
// then a tree over block values in which node (L, i) covers blocks [i*2^L, (i+1)*2^L),
// clipped at the last block, and is merge(node(L-1, 2i), node(L-1, 2i+1)) when its right
// child exists and node(L-1, 2i) otherwise.
//
// A part's split_state holds what it can compute on its own, in sequence order:
//   - a leading fragment: the lifted elements of a block that began in an earlier part;
//   - the tree nodes its complete blocks make up, as few and as large as possible (each
//     one the fixed-order sum of an aligned run of blocks, which any backend computes
//     with precision::deterministic on that run alone);
//   - a trailing fragment: the lifted elements of a block that ends in a later part.
// Two adjacent states merge by joining the fragments that meet (a block that becomes
// complete is folded here, by the same lanes) and merging tree siblings that meet. Every
// node is computed once, from the same two children, so the merge is exactly associative:
// any grouping (an MPI reduction tree, a left fold) ends with the same root bits.
//
// Plain C++, no MPI: the collective moves split_state as bytes (it is trivially copyable).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "preduce/detail/deterministic.hpp"
#include "preduce/detail/numeric.hpp"

namespace preduce::mpi::detail {

namespace det = ::preduce::detail::det;

template <class A>
struct split_state {
    static_assert(std::is_floating_point_v<A>, "the split order serves floating-point sums");
    static constexpr std::size_t max_nodes = 128;  // a run of blocks needs at most 2 per tree level (< 64 levels)

    struct node {
        std::uint64_t level;
        std::uint64_t index;
        A value;
    };
    struct fragment {
        std::uint64_t block;
        std::uint64_t start;  // position of values[0] inside the block
        std::uint64_t count;
        A values[det::block];
    };

    std::uint64_t total = 0;  // elements in the whole sequence (every part knows it)
    std::uint64_t first = 0;  // this state covers global positions [first, last)
    std::uint64_t last = 0;
    std::uint32_t failed = 0;  // a part could not compute its values, or the parts did not meet
    std::uint32_t nodes = 0;
    std::uint32_t has_lead = 0;  // a state that is a single fragment keeps it as lead
    std::uint32_t has_trail = 0;
    fragment lead;
    fragment trail;
    node list[max_nodes];
};

inline constexpr std::uint64_t max_level = 62;

// Nodes at level L of the tree over m blocks: ceil(m / 2^L).
constexpr std::uint64_t level_count(std::uint64_t level, std::uint64_t m) noexcept {
    return level >= max_level ? (m > 0 ? 1 : 0) : (m >> level) + ((m & ((std::uint64_t{1} << level) - 1)) != 0);
}

constexpr std::uint64_t block_length(std::uint64_t b, std::uint64_t total) noexcept {
    const std::uint64_t first = b * det::block;
    return total - first < det::block ? total - first : det::block;
}

// The block value of a complete block from its lifted elements: det::block_value's lanes.
template <class A>
A fold_block(const A* values, std::uint64_t count) noexcept {
    constexpr precision P = precision::deterministic;
    A lane[det::lanes];
    for (std::size_t j = 0; j < det::lanes; ++j) lane[j] = det::zero<P, A>(::preduce::detail::additive_identity<A>());
    for (std::uint64_t k = 0; k < count; ++k) det::add<P, A>(lane[k % det::lanes], values[k]);
    for (std::size_t w = det::lanes / 2; w > 0; w /= 2)
        for (std::size_t j = 0; j < w; ++j) lane[j] = det::merge<P, A>(lane[j], lane[j + w]);
    return lane[0];
}

// Appends a node, merging it with its left sibling when that is the last node, and moving
// a node that is the last of its level and has no right sibling up a level (block tree's
// "an odd last value moves"), until it is the root or waits for a sibling.
template <class A>
void push_node(split_state<A>& s, typename split_state<A>::node x) noexcept {
    const std::uint64_t m = det::block_count(s.total);
    for (;;) {
        const std::uint64_t count = level_count(x.level, m);
        if (count <= 1 || x.level >= max_level) break;  // the root
        if (x.index % 2 == 0) {
            if (x.index + 1 < count) break;  // its right sibling comes later
            x = {x.level + 1, x.index / 2, x.value};
            continue;
        }
        if (s.nodes == 0) break;
        const auto& left = s.list[s.nodes - 1];
        if (left.level != x.level || left.index + 1 != x.index) break;  // the left sibling is not all here
        x = {x.level + 1, x.index / 2, det::merge<precision::deterministic, A>(left.value, x.value)};
        --s.nodes;
    }
    if (s.nodes == split_state<A>::max_nodes) {
        s.failed = 1;
        return;
    }
    s.list[s.nodes++] = x;
}

// Whether s ends inside a block (its last item is a fragment the next part must continue).
template <class A>
bool ends_open(const split_state<A>& s) noexcept {
    const auto* f = s.has_trail ? &s.trail : (s.has_lead && s.nodes == 0 ? &s.lead : nullptr);
    return f != nullptr && f->start + f->count < block_length(f->block, s.total);
}

// Appends count lifted elements at global positions [pos, pos + count), all in one block.
template <class A>
void push_elements(split_state<A>& s, std::uint64_t pos, const A* values, std::uint64_t count) noexcept {
    using fragment = typename split_state<A>::fragment;
    if (count == 0) return;
    const std::uint64_t b = pos / det::block;
    const std::uint64_t start = pos - b * det::block;
    // The open fragment at the end of s, if any: this state's only fragment or its trailing one.
    fragment* open = s.has_trail ? &s.trail : (s.has_lead && s.nodes == 0 ? &s.lead : nullptr);
    if (open != nullptr && open->block == b && open->start + open->count == start) {
        for (std::uint64_t k = 0; k < count; ++k) open->values[open->count + k] = values[k];
        open->count += count;
    } else if (open != nullptr && open->start + open->count < block_length(open->block, s.total)) {
        s.failed = 1;  // an incomplete block followed by another one: the parts do not meet
        return;
    } else {
        open = s.nodes == 0 && !s.has_lead ? &s.lead : &s.trail;
        if (open == &s.lead) s.has_lead = 1;
        else s.has_trail = 1;
        open->block = b;
        open->start = start;
        open->count = count;
        for (std::uint64_t k = 0; k < count; ++k) open->values[k] = values[k];
    }
    if (open->start == 0 && open->count == block_length(b, s.total)) {  // complete: now a block value
        const A v = fold_block(open->values, open->count);
        if (open == &s.lead) s.has_lead = 0;
        else s.has_trail = 0;
        push_node(s, {0, b, v});
    }
}

// merge(left, right): left covers the positions just before right's. Heap-allocated:
// a state is tens of KiB, and MPI may call this on a small stack.
template <class A>
std::unique_ptr<split_state<A>> merge(const split_state<A>& left, const split_state<A>& right) {
    auto out = std::make_unique<split_state<A>>(left);
    if (right.first == right.last && !right.failed) return out;
    if (left.first == left.last && !left.failed) {
        *out = right;
        return out;
    }
    out->failed |= right.failed;
    if (left.last != right.first || left.total != right.total) out->failed = 1;
    if (out->failed) return out;
    out->last = right.last;
    if (right.has_lead) push_elements(*out, right.lead.block * det::block + right.lead.start, right.lead.values, right.lead.count);
    for (std::uint32_t k = 0; k < right.nodes; ++k) {
        if (ends_open(*out)) {
            out->failed = 1;  // an incomplete block before a complete one
            return out;
        }
        push_node(*out, right.list[k]);
    }
    if (right.has_trail)
        push_elements(*out, right.trail.block * det::block + right.trail.start, right.trail.values, right.trail.count);
    return out;
}

// The sum a state of the whole sequence stands for (the identity for an empty sequence).
template <class A>
bool root_value(const split_state<A>& s, A& out) noexcept {
    if (s.failed || s.first != 0 || s.last != s.total) return false;
    if (s.total == 0) {
        out = ::preduce::detail::additive_identity<A>();
        return true;
    }
    if (s.nodes != 1 || s.has_lead || s.has_trail) return false;
    out = s.list[0].value;
    return true;
}

// The state of one part: positions [first, first + n) of a sequence of total elements.
// lift_range(pos, count, A* out) writes the lifted elements at [pos, pos + count);
// node_sum(pos, count) returns the fixed-order sum of the complete blocks in [pos, pos + count)
// (a backend's precision::deterministic result on them).
template <class A, class LiftRange, class NodeSum>
std::unique_ptr<split_state<A>> local_state(std::uint64_t total, std::uint64_t first, std::uint64_t n,
                                            LiftRange&& lift_range, NodeSum&& node_sum) {
    auto s = std::make_unique<split_state<A>>();
    s->total = total;
    s->first = s->last = first;
    if (n == 0) return s;
    s->last = first + n;
    const std::uint64_t end = first + n;
    const std::uint64_t m = det::block_count(total);
    auto buffer = std::make_unique<A[]>(det::block);
    std::uint64_t pos = first;
    auto fragment_to = [&](std::uint64_t stop) {
        lift_range(pos, stop - pos, buffer.get());
        push_elements(*s, pos, buffer.get(), stop - pos);
        pos = stop;
    };
    // A block that began in an earlier part, or that ends in a later one.
    const std::uint64_t b = pos / det::block;
    const std::uint64_t block_end = b * det::block + block_length(b, total);
    if (pos % det::block != 0 || end < block_end) fragment_to(end < block_end ? end : block_end);
    // Complete blocks [b0, b1), as maximal aligned runs: node (L, p / 2^L) is blocks
    // [p, min(p + 2^L, m)) for p a multiple of 2^L.
    const std::uint64_t b0 = pos / det::block;
    const std::uint64_t b1 = end == total ? m : end / det::block;
    for (std::uint64_t p = b0; p < b1 && pos < end;) {
        std::uint64_t level = 0;
        while (level + 1 < max_level && level_count(level, m) > 1 && p % (std::uint64_t{2} << level) == 0) {
            const std::uint64_t span = std::uint64_t{2} << level;
            if ((p + span < m ? p + span : m) > b1) break;
            ++level;
        }
        const std::uint64_t stop = (p + (std::uint64_t{1} << level) < m ? p + (std::uint64_t{1} << level) : m);
        const std::uint64_t elems_end = stop == m ? total : stop * det::block;
        push_node(*s, {level, p >> level, node_sum(p * det::block, elems_end - p * det::block)});
        pos = elems_end;
        p = stop;
    }
    if (pos < end) fragment_to(end);  // a block that ends in a later part
    return s;
}

} // namespace preduce::mpi::detail
