#pragma once
// The host side of a reduction split over several GPUs (multi_gpu.cuh), in plain C++ so
// that it is tested without a GPU (tests/multigpu, the plan cases):
//
//  - split(): contiguous parts of n elements for k GPUs, cut at 4096-element block
//    boundaries (the fixed order's blocks, so no block straddles two GPUs).
//  - fixed_share_of(): for one part [offset, offset + n) of a total of `total` elements, which
//    blocks of the fixed order (detail/deterministic.hpp) lie wholly inside it, which
//    aligned groups of G blocks lie wholly inside those, and which of its elements belong
//    to blocks that straddle two parts (only reduce_parts, whose boundaries the caller
//    chooses, has those).
//  - fixed_assembly: the rest of the block tree from what the parts computed (block
//    values, group values) and what the host computed (straddling blocks), in any order.
//    Node (L, i) of the block tree covers blocks [i 2^L, (i+1) 2^L) clipped at the end, so
//    the value of an aligned group of G = 2^L blocks is the block tree of that group alone,
//    and the tree over the group values is the rest of the tree: the same bits as one
//    block tree over every block value.
#include <algorithm>
#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "preduce/detail/deterministic.hpp"
#include "preduce/errors.hpp"
#include "preduce/precision.hpp"

namespace preduce::cuda::detail::multi {

namespace det = ::preduce::detail::det;

struct range {
    std::size_t begin = 0, end = 0;  // [begin, end)
    std::size_t size() const noexcept { return end > begin ? end - begin : 0; }
    bool empty() const noexcept { return end <= begin; }
};

// k contiguous parts of [0, n), cut at block boundaries, as even as whole blocks allow; part
// i is empty when there are fewer blocks than parts.
inline std::vector<range> split(std::size_t n, std::size_t k) {
    const std::size_t m = det::block_count(n);
    std::vector<range> parts(k);
    for (std::size_t i = 0; i < k; ++i) {
        // m * i / k without overflow (m < 2^52 for any n that fits in memory)
        const std::size_t b0 = m / k * i + m % k * i / k;
        const std::size_t b1 = m / k * (i + 1) + m % k * (i + 1) / k;
        parts[i] = {std::min(n, b0 * det::block), std::min(n, b1 * det::block)};
    }
    return parts;
}

// What one part of a fixed-order reduction computes on its GPU, and what it leaves to the host.
struct fixed_share {
    range blocks;  // block indices wholly inside the part (the global last block, if short, counts)
    range groups;  // group indices (G blocks each) wholly inside `blocks`
    range lead;    // global element positions of the part before its whole blocks (straddling)
    range trail;   // global element positions of the part after its whole blocks (straddling)
    // Block values the part sends raw (outside whole groups): [blocks.begin, head_end) and
    // [tail_begin, blocks.end).
    std::size_t head_end = 0, tail_begin = 0;
};

// The share of part [offset, offset + n) (n >= 1) of `total` elements; G: blocks per group.
inline fixed_share fixed_share_of(std::size_t offset, std::size_t n, std::size_t total, std::size_t G) {
    const std::size_t B = det::block;
    const std::size_t m = det::block_count(total);
    const std::size_t end = offset + n;
    fixed_share s;
    std::size_t fb = (offset + B - 1) / B;
    std::size_t fe = end == total ? m : end / B;
    if (fb >= fe) {  // no whole block: every element straddles
        s.blocks = {fb, fb};
        s.lead = {offset, end};
        s.trail = {end, end};
        s.head_end = s.tail_begin = fb;
        return s;
    }
    s.blocks = {fb, fe};
    s.lead = {offset, std::min(end, fb * B)};
    s.trail = {std::min(fe * B, end), end};
    if (fe == m) s.trail = {end, end};  // the last block, short or not, is whole here
    const std::size_t gb = (fb + G - 1) / G;
    const std::size_t ge = fe == m ? (m + G - 1) / G : fe / G;
    if (gb < ge) {
        s.groups = {gb, ge};
        s.head_end = gb * G;
        s.tail_begin = std::min(ge * G, m);
    } else {
        s.groups = {gb, gb};
        s.head_end = fe;
        s.tail_begin = fe;
    }
    return s;
}

// Element buffers of the blocks that straddle parts: block index -> its elements, filled by
// the parts (each copies its lead and trail into place), then folded on the host. The
// map is built before any part runs and never changes shape afterwards, so parts may fill
// it from several threads at once (disjoint elements).
template <class T>
class straddles {
public:
    straddles(std::size_t total) : total_(total) {}
    void add_range(range r) {
        if (r.empty()) return;
        for (std::size_t b = r.begin / det::block; b <= (r.end - 1) / det::block; ++b)
            if (blocks_.find(b) == blocks_.end())
                blocks_.emplace(b, std::vector<T>(std::min(det::block, total_ - b * det::block)));
    }
    // Where global element i goes.
    T* slot(std::size_t i) { return blocks_.at(i / det::block).data() + i % det::block; }
    const std::map<std::size_t, std::vector<T>>& blocks() const { return blocks_; }
    bool empty() const { return blocks_.empty(); }

private:
    std::size_t total_;
    std::map<std::size_t, std::vector<T>> blocks_;
};

// R with the global position of a straddling block's first element added to lift()'s
// index, so that det::block_value over the block's elements (indices from 0) lifts each
// element with its global position.
template <class R>
struct shifted {
    using value_type = typename R::value_type;
    using accumulator_type = typename R::accumulator_type;
    const R* r;
    std::size_t first;
    static accumulator_type identity() { return R::identity(); }
    accumulator_type lift(const value_type& x, std::size_t i) const { return r->lift(x, first + i); }
};

// The value of straddling block b from its elements.
template <precision P, class R>
det::value_t<P, typename R::accumulator_type> straddle_value(const R& r, std::size_t b, const std::vector<typename R::value_type>& e) {
    const shifted<R> s{&r, b * det::block};
    return det::block_value<P>(s, e.data(), e.size(), 0);
}

// Collects block values and group values (G blocks each, aligned) from the parts and the
// host, in any order, and runs the rest of the block tree over `m` blocks.
template <precision P, class A>
class fixed_assembly {
public:
    using V = det::value_t<P, A>;
    fixed_assembly(std::size_t m, std::size_t G) : m_(m), G_(G) {}
    void add_block(std::size_t b, const V& v) { items_.push_back({b, 1, v, false}); }
    void add_group(std::size_t g, const V& v) { items_.push_back({g * G_, std::min(G_, m_ - g * G_), v, true}); }

    // The sum over all m blocks (the identity's pair for m = 0).
    V finish(A identity) {
        std::sort(items_.begin(), items_.end(), [](const item& a, const item& b) { return a.first < b.first; });
        std::vector<V> groups;
        std::vector<V> pending;  // block values of the group being gathered
        std::size_t next = 0;    // the first block not yet covered
        for (const item& it : items_) {
            if (it.first != next) internal("a block is missing or covered twice", it.first);
            if (it.group) {
                if (!pending.empty() || it.first % G_ != 0) internal("a group value off a group boundary", it.first);
                groups.push_back(it.v);
            } else {
                pending.push_back(it.v);
                if ((it.first + 1) % G_ == 0 || it.first + 1 == m_) {  // the group is complete
                    groups.push_back(det::block_tree<P, A>(pending.data(), pending.size(), identity));
                    pending.clear();
                }
            }
            next = it.first + it.count;
        }
        if (next != m_ || !pending.empty()) internal("the blocks do not reach the end", next);
        return det::block_tree<P, A>(groups.data(), groups.size(), identity);
    }

private:
    struct item {
        std::size_t first, count;
        V v;
        bool group;
    };
    [[noreturn]] static void internal(const char* what, std::size_t at) {
        throw error(std::string("preduce cuda backend: internal error in the multi-GPU fixed order: ") + what +
                    " (block " + std::to_string(at) + ")");
    }

    std::size_t m_, G_;
    std::vector<item> items_;
};

} // namespace preduce::cuda::detail::multi
