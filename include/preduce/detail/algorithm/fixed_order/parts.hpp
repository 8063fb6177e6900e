#pragma once
// The fixed order (order.hpp) assembled from parts: a sequence cut into contiguous parts
// anywhere (MPI ranks, GPUs of one process), each part reduced where it lives, and the
// pieces joined into the bits of one reduction of the whole sequence. MPI
// (preduce/mpi/split_order.hpp) and multi-GPU (preduce/cuda/multi_gpu/) are transports
// over this file; neither knows the tree's shape.
//
// The block tree's node (L, i) covers blocks [i*2^L, min((i+1)*2^L, m)) of the m blocks,
// and is merge(node(L-1, 2i), node(L-1, 2i+1)) when its right child exists and node(L-1,
// 2i) otherwise (block_tree's "an odd last value moves up"). So the fixed-order sum of an
// aligned run of blocks, computed on that run alone (block_tree over its block values,
// any backend's precision::deterministic result over its elements), is exactly the node
// that covers it.
//
// A partial_tree holds what one contiguous part of the sequence can compute on its own,
// in sequence order:
//   - a leading fragment: the lifted elements of a block that began in an earlier part;
//   - tree nodes of its complete blocks, as few and as large as possible;
//   - a trailing fragment: the lifted elements of a block that ends in a later part.
// append(left, right) joins two adjacent parts: fragments that meet are joined (a block
// that becomes complete is folded by the same lanes as block_value) and sibling nodes
// that meet are merged. Every node is computed once, from the same two children, so
// appending is exactly associative: any grouping (an MPI reduction tree, a left fold over
// GPUs) ends with the same root bits.
//
// Plain C++ with no pointers inside: MPI moves a partial_tree as bytes.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "preduce/detail/algorithm/fixed_order/order.hpp"
#include "preduce/detail/core/numeric.hpp"
#include "preduce/precision.hpp"

namespace preduce::detail::fixed_order {

inline constexpr std::uint64_t max_level = 62;

// Elements of block b in a sequence of `total` elements (4096 except for a short last block).
constexpr std::uint64_t block_length(std::uint64_t b, std::uint64_t total) noexcept {
    const std::uint64_t first = b * block;
    return total - first < block ? total - first : block;
}

// The blocks that lie wholly inside part [first, first + n) of a sequence of `total`
// elements: [begin, end) (empty when none does). The global last block counts as whole
// when the part reaches the end of the sequence.
struct block_range {
    std::uint64_t begin = 0, end = 0;
};
constexpr block_range whole_blocks(std::uint64_t first, std::uint64_t n, std::uint64_t total) noexcept {
    const std::uint64_t b0 = first / block + (first % block != 0);
    const std::uint64_t b1 = first + n == total ? block_count(total) : (first + n) / block;
    return b0 < b1 ? block_range{b0, b1} : block_range{b0, b0};
}

// Calls f(level, index, first_block, end_block) for the nodes that cover blocks [b0, b1) of
// a tree over m blocks, in order, as few and as large as possible: at each position p the
// highest level whose node starts at p and ends within b1.
template <class F>
void for_each_node(std::uint64_t b0, std::uint64_t b1, std::uint64_t m, F&& f) {
    for (std::uint64_t p = b0; p < b1;) {
        std::uint64_t level = 0;
        while (level + 1 < max_level && level_count(level, m) > 1 && p % (std::uint64_t{2} << level) == 0) {
            const std::uint64_t span = std::uint64_t{2} << level;
            if ((p + span < m ? p + span : m) > b1) break;
            ++level;
        }
        const std::uint64_t stop = p + (std::uint64_t{1} << level) < m ? p + (std::uint64_t{1} << level) : m;
        f(level, p >> level, p, stop);
        p = stop;
    }
}

// The value of a complete block from its lifted elements: block_value's lanes and lane tree.
template <precision P, class A>
value_t<P, A> fold_lifted_block(const A* values, std::uint64_t count) noexcept {
    value_t<P, A> lane[lanes];
    for (std::size_t j = 0; j < lanes; ++j) lane[j] = zero<P, A>(additive_identity<A>());
    for (std::uint64_t k = 0; k < count; ++k) add<P, A>(lane[k % lanes], values[k]);
    for (std::size_t w = lanes / 2; w > 0; w /= 2)
        for (std::size_t j = 0; j < w; ++j) lane[j] = merge<P, A>(lane[j], lane[j + w]);
    return lane[0];
}

template <precision P, class A>
struct partial_tree {
    static_assert(std::is_floating_point_v<A>, "the fixed order serves floating-point sums");
    using value = value_t<P, A>;
    static constexpr std::size_t max_nodes = 128;  // a run of blocks needs at most 2 per tree level (< 64 levels)

    struct node {
        std::uint64_t level;
        std::uint64_t index;
        value v;
    };
    struct fragment {
        std::uint64_t block;
        std::uint64_t start;  // position of values[0] inside the block
        std::uint64_t count;
        A values[::preduce::detail::fixed_order::block];  // lifted elements
    };

    std::uint64_t total = 0;  // elements in the whole sequence (every part knows it)
    std::uint64_t first = 0;  // this tree covers global positions [first, last)
    std::uint64_t last = 0;
    std::uint32_t failed = 0;  // a part could not compute its values, or the parts did not meet
    std::uint32_t nodes = 0;
    std::uint32_t has_lead = 0;  // a tree that is a single fragment keeps it as lead
    std::uint32_t has_trail = 0;
    fragment lead;
    fragment trail;
    node list[max_nodes];
};

// An empty partial tree at position `first` of a sequence of `total` elements. On the
// heap: a partial_tree holds two 4096-element fragments.
template <precision P, class A>
std::unique_ptr<partial_tree<P, A>> empty_tree(std::uint64_t total, std::uint64_t first) {
    auto t = std::make_unique<partial_tree<P, A>>();
    t->total = total;
    t->first = t->last = first;
    return t;
}

// Appends node x, merging it with its left sibling when that is the last node, and moving
// a node that is the last of its level and has no right sibling up a level, until it is
// the root or waits for a sibling.
template <precision P, class A>
void push_node(partial_tree<P, A>& t, typename partial_tree<P, A>::node x) noexcept {
    const std::uint64_t m = block_count(t.total);
    for (;;) {
        const std::uint64_t count = level_count(x.level, m);
        if (count <= 1 || x.level >= max_level) break;  // the root
        if (x.index % 2 == 0) {
            if (x.index + 1 < count) break;  // its right sibling comes later
            x = {x.level + 1, x.index / 2, x.v};
            continue;
        }
        if (t.nodes == 0) break;
        const auto& left = t.list[t.nodes - 1];
        if (left.level != x.level || left.index + 1 != x.index) break;  // the left sibling is not all here
        x = {x.level + 1, x.index / 2, merge<P, A>(left.v, x.v)};
        --t.nodes;
    }
    if (t.nodes == partial_tree<P, A>::max_nodes) {
        t.failed = 1;
        return;
    }
    t.list[t.nodes++] = x;
}

// The open fragment at the end of t (its only fragment, or its trailing one), if any.
template <precision P, class A>
typename partial_tree<P, A>::fragment* open_fragment(partial_tree<P, A>& t) noexcept {
    return t.has_trail ? &t.trail : (t.has_lead && t.nodes == 0 ? &t.lead : nullptr);
}

// Whether t ends inside a block (its last item is a fragment the next part must continue).
template <precision P, class A>
bool ends_open(const partial_tree<P, A>& t) noexcept {
    const auto* f = t.has_trail ? &t.trail : (t.has_lead && t.nodes == 0 ? &t.lead : nullptr);
    return f != nullptr && f->start + f->count < block_length(f->block, t.total);
}

// Appends count lifted elements at global positions [pos, pos + count), all in one block.
template <precision P, class A>
void push_elements(partial_tree<P, A>& t, std::uint64_t pos, const A* values, std::uint64_t count) noexcept {
    using fragment = typename partial_tree<P, A>::fragment;
    if (count == 0) return;
    const std::uint64_t b = pos / block;
    const std::uint64_t start = pos - b * block;
    fragment* open = open_fragment(t);
    if (open != nullptr && open->block == b && open->start + open->count == start) {
        for (std::uint64_t k = 0; k < count; ++k) open->values[open->count + k] = values[k];
        open->count += count;
    } else if (open != nullptr && open->start + open->count < block_length(open->block, t.total)) {
        t.failed = 1;  // an incomplete block followed by another one: the parts do not meet
        return;
    } else {
        open = t.nodes == 0 && !t.has_lead ? &t.lead : &t.trail;
        if (open == &t.lead) t.has_lead = 1;
        else t.has_trail = 1;
        open->block = b;
        open->start = start;
        open->count = count;
        for (std::uint64_t k = 0; k < count; ++k) open->values[k] = values[k];
    }
    if (open->start == 0 && open->count == block_length(b, t.total)) {  // complete: now a block value
        const auto v = fold_lifted_block<P, A>(open->values, open->count);
        if (open == &t.lead) t.has_lead = 0;
        else t.has_trail = 0;
        push_node(t, {0, b, v});
    }
}

// Appends lifted elements at global positions [pos, pos + count), which may span blocks.
template <precision P, class A>
void push_run(partial_tree<P, A>& t, std::uint64_t pos, const A* values, std::uint64_t count) noexcept {
    while (count > 0) {
        const std::uint64_t to_block_end = (pos / block + 1) * block - pos;
        const std::uint64_t k = count < to_block_end ? count : to_block_end;
        push_elements(t, pos, values, k);
        pos += k;
        values += k;
        count -= k;
    }
}

// Appends `right` to `left`; right covers the positions just after left's.
template <precision P, class A>
void append(partial_tree<P, A>& left, const partial_tree<P, A>& right) noexcept {
    if (right.first == right.last && !right.failed) return;
    if (left.first == left.last && !left.failed) {
        left = right;
        return;
    }
    left.failed |= right.failed;
    if (left.last != right.first || left.total != right.total) left.failed = 1;
    if (left.failed) return;
    left.last = right.last;
    if (right.has_lead) push_elements(left, right.lead.block * block + right.lead.start, right.lead.values, right.lead.count);
    for (std::uint32_t k = 0; k < right.nodes; ++k) {
        if (ends_open(left)) {
            left.failed = 1;  // an incomplete block before a complete one
            return;
        }
        push_node(left, right.list[k]);
    }
    if (right.has_trail)
        push_elements(left, right.trail.block * block + right.trail.start, right.trail.values, right.trail.count);
}

// The sum a tree of the whole sequence stands for (the identity for an empty sequence);
// false when t does not cover the whole sequence or a part failed.
template <precision P, class A>
bool root_value(const partial_tree<P, A>& t, value_t<P, A>& out) noexcept {
    if (t.failed || t.first != 0 || t.last != t.total) return false;
    if (t.total == 0) {
        out = zero<P, A>(additive_identity<A>());
        return true;
    }
    if (t.nodes != 1 || t.has_lead || t.has_trail) return false;
    out = t.list[0].v;
    return true;
}

// The partial tree of part [first, first + n) of a sequence of `total` elements:
//   lift_range(pos, count, A* out) writes the lifted elements at [pos, pos + count);
//   node_value(first_block, end_block) returns the value of the node covering those
//   complete blocks: the fixed-order sum of that run alone, as a value_t<P, A>.
template <precision P, class A, class LiftRange, class NodeValue>
std::unique_ptr<partial_tree<P, A>> tree_of_part(std::uint64_t total, std::uint64_t first, std::uint64_t n,
                                                 LiftRange&& lift_range, NodeValue&& node_value) {
    auto t = empty_tree<P, A>(total, first);
    if (n == 0) return t;
    t->last = first + n;
    const std::uint64_t end = first + n;
    const block_range whole = whole_blocks(first, n, total);
    auto buffer = std::make_unique<A[]>(block);
    const auto fragment = [&](std::uint64_t from, std::uint64_t to) {
        for (std::uint64_t pos = from; pos < to;) {  // block by block: a short part may touch two
            const std::uint64_t stop = to < (pos / block + 1) * block ? to : (pos / block + 1) * block;
            lift_range(pos, stop - pos, buffer.get());
            push_elements(*t, pos, buffer.get(), stop - pos);
            pos = stop;
        }
    };
    if (whole.begin == whole.end) {  // no complete block: every element is a fragment
        fragment(first, end);
        return t;
    }
    fragment(first, whole.begin * block);
    for_each_node(whole.begin, whole.end, block_count(total), [&](std::uint64_t level, std::uint64_t index,
                                                                 std::uint64_t b0, std::uint64_t b1) {
        push_node(*t, {level, index, node_value(b0, b1)});
    });
    fragment(whole.end * block < end ? whole.end * block : end, end);
    return t;
}

} // namespace preduce::detail::fixed_order
