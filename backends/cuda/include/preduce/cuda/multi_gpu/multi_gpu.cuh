#pragma once
// One reduction over several GPUs of this process (options::gpus, reduce_parts). Each GPU
// reduces its contiguous part on a host thread of its own (workers.hpp), all at the same
// time, with the single-GPU machinery (in place, or through that thread's host staging
// pipeline); the host combines the parts in input order.
//
//  - fast order: each part leaves its accumulator, not its finished result (Finish = false
//    in grid/launch.cuh and staging/host_staging.cuh); the host folds the accumulators left
//    to right with R::combine and finishes once, so non-commutative reducers keep operand
//    order, and every part lifts its elements with their global positions (base), so
//    argmin and argmax report global indices with the lowest index winning ties.
//  - fixed order (deterministic, compensated): a part computes the values of the
//    4096-element blocks that lie wholly inside it and folds the aligned groups of
//    tree_group blocks that lie wholly inside those (whole subtrees of the block tree,
//    fixed::enqueue_groups); it sends the group values and the remaining block values,
//    plus the lifted elements of blocks it shares with a neighbour part (reduce_parts only).
//    The host joins them in sequence order into one partial tree
//    (preduce/detail/algorithm/fixed_order/parts.hpp): the bits of one GPU and of the seq backend.
#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "preduce/cuda/grid/fixed_order.cuh"
#include "preduce/cuda/info.hpp"
#include "preduce/cuda/grid/launch.cuh"
#include "preduce/cuda/multi_gpu/plan.hpp"
#include "preduce/cuda/multi_gpu/workers.hpp"
#include "preduce/cuda/runtime/check.hpp"
#include "preduce/cuda/runtime/memory.hpp"
#include "preduce/cuda/runtime/placement.hpp"
#include "preduce/cuda/staging/host_staging.cuh"
#include "preduce/cuda/tuning.hpp"
#include "preduce/detail/algorithm/fixed_order/parts.hpp"
#include "preduce/errors.hpp"
#include "preduce/options.hpp"
#include "preduce/precision.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda {

// One part of an input spread over the GPUs of this process: n elements at data, in the
// memory of GPU `device` (cudaMalloc'ed there, or managed memory).
template <class T>
struct device_part {
    int device;
    const T* data;
    std::size_t n;
};

} // namespace preduce::cuda

namespace preduce::cuda::detail::multi {

// One part of a multi-GPU reduction: elements [offset, offset + n) of the whole input, at
// src; `where` is the placement of the whole input (a part lives where its input does).
template <class S>
struct piece {
    int device;
    S src;
    std::size_t n;
    std::size_t offset;
    placement<columns<S>::count> where;
};

// Which of a piece's arrays its GPU (the current device) cannot read in place and must
// stage: pageable host memory, and pinned host memory not mapped into this device.
template <class S>
std::array<bool, columns<S>::count> staged_arrays(const piece<S>& p) {
    std::array<bool, columns<S>::count> staged = p.where.pageable();
    const auto arrays = columns<S>::of(p.src);
    for (std::size_t c = 0; c < arrays.size(); ++c)
        if (p.where.where[c] == memory_kind::pinned) staged[c] = !mapped_here(arrays[c]);
    return staged;
}

template <std::size_t N>
bool any_of(const std::array<bool, N>& a) {
    for (bool b : a)
        if (b) return true;
    return false;
}

// The devices that hold pieces, in first-appearance order, and each one's pieces in order.
template <class S>
struct by_device {
    std::vector<int> devices;
    std::vector<std::vector<std::size_t>> pieces;
    explicit by_device(const std::vector<piece<S>>& all) {
        for (std::size_t i = 0; i < all.size(); ++i) {
            if (all[i].n == 0) continue;  // nothing to do on that GPU for this piece
            std::size_t d = 0;
            while (d < devices.size() && devices[d] != all[i].device) ++d;
            if (d == devices.size()) {
                devices.push_back(all[i].device);
                pieces.emplace_back();
            }
            pieces[d].push_back(i);
        }
    }
};

// ---- fast order ---------------------------------------------------------------------------

// One piece's accumulator, on the calling worker's GPU.
template <class R>
typename R::accumulator_type fast_piece(const R& r, const piece<source_t<R>>& p) {
    using A = typename R::accumulator_type;
    cudaStream_t s = cudaStreamPerThread;
    const auto staged = staged_arrays(p);
    device_buffer d_acc(sizeof(A), s);
    if (any_of(staged)) enqueue_reduce_from_host<R, false>(r, p.src, p.n, staged, d_acc.as<A>(), s, p.offset);
    else enqueue_reduce<R, false>(r, p.src, p.n, d_acc.as<A>(), s, nullptr, 0, p.offset);
    A* host = result_slot<A>();
    check(cudaMemcpyAsync(host, d_acc.as<A>(), sizeof(A), cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync (part result)");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize (kernel errors surface here)");
    return *host;
}

template <class R>
typename R::result_type reduce_fast(const R& r, const std::vector<piece<source_t<R>>>& pieces) {
    using A = typename R::accumulator_type;
    const by_device<source_t<R>> plan(pieces);
    std::vector<A> acc(pieces.size(), R::identity());
    device_workers::instance().run_all(plan.devices, [&](std::size_t d) {
        for (std::size_t i : plan.pieces[d]) acc[i] = fast_piece(r, pieces[i]);
    });
    A total = R::identity();
    for (const A& a : acc) total = R::combine(total, a);  // input order: left before right
    return r.finish(total);
}

// ---- fixed order --------------------------------------------------------------------------

template <precision P, class R>
void fixed_piece(const R& r, const piece<source_t<R>>& p, const fixed_share& share,
                 fixed_result<typename R::accumulator_type, fixed_order::value_t<P, typename R::accumulator_type>>& out,
                 std::size_t total) {
    using A = typename R::accumulator_type;
    using V = fixed_order::value_t<P, A>;
    using S = source_t<R>;
    constexpr std::size_t G = fixed::tree_group<V>;
    cudaStream_t s = cudaStreamPerThread;
    const std::size_t m_part = share.blocks.size();
    if (m_part > 0) {
        const std::size_t first = share.blocks.begin * fixed_order::block;  // global position
        const std::size_t len = std::min(share.blocks.end * fixed_order::block, total) - first;
        piece<S> whole_blocks = p;
        whole_blocks.src = p.src + (first - p.offset);
        const auto staged = staged_arrays(whole_blocks);
        const std::size_t n_groups = share.groups.size();
        device_buffer values((m_part + n_groups) * sizeof(V), s);
        V* v = values.as<V>();
        V* g = v + m_part;
        if (any_of(staged)) stage_fixed_blocks<P>(r, whole_blocks.src, len, first, staged, v, s, [] {});
        else fixed::enqueue_blocks<P>(r, whole_blocks.src, len, first, v, s);
        if (n_groups > 0) {
            const std::size_t g_first = share.groups.begin * G - share.blocks.begin;  // v index of the first group
            fixed::enqueue_groups<P>(r, v + g_first, share.tail_begin - share.groups.begin * G, g, s);
        }
        out.head.resize(share.head_end - share.blocks.begin);
        out.groups.resize(n_groups);
        out.tail.resize(share.blocks.end - share.tail_begin);
        const auto copy_back = [&](std::vector<V>& to, const V* from) {
            if (!to.empty())
                check(cudaMemcpyAsync(to.data(), from, to.size() * sizeof(V), cudaMemcpyDeviceToHost, s),
                      "cudaMemcpyAsync (block values)");
        };
        copy_back(out.head, v);
        copy_back(out.groups, g);
        copy_back(out.tail, v + (share.tail_begin - share.blocks.begin));
        check(cudaStreamSynchronize(s), "cudaStreamSynchronize (kernel errors surface here)");
    }
    // The elements of blocks shared with the neighbours, lifted at their global positions.
    const auto lift_shared = [&](const range& e, std::vector<A>& to) {
        if (e.empty()) return;
        if constexpr (std::is_pointer_v<S>) {
            std::vector<typename R::value_type> raw(e.size());
            check(cudaMemcpy(raw.data(), p.src + (e.begin - p.offset), raw.size() * sizeof(raw[0]), cudaMemcpyDefault),
                  "cudaMemcpy (shared block)");
            to.resize(raw.size());
            for (std::size_t k = 0; k < raw.size(); ++k) to[k] = r.lift(raw[k], e.begin + k);
        } else {
            // Two-array sources come only from the block-aligned split of host data.
            throw error("preduce cuda backend: internal error: a two-array part is not block-aligned");
        }
    };
    lift_shared(share.lead, out.lead);
    lift_shared(share.trail, out.trail);
}

template <precision P, class R>
typename R::result_type reduce_fixed(const R& r, const std::vector<piece<source_t<R>>>& pieces, std::size_t total) {
    using A = typename R::accumulator_type;
    using V = fixed_order::value_t<P, A>;
    constexpr std::size_t G = fixed::tree_group<V>;
    std::vector<fixed_share> shares(pieces.size());
    for (std::size_t i = 0; i < pieces.size(); ++i)
        if (pieces[i].n != 0) shares[i] = fixed_share_of(pieces[i].offset, pieces[i].n, total, G);
    std::vector<fixed_result<A, V>> results(pieces.size());
    const by_device<source_t<R>> plan(pieces);
    device_workers::instance().run_all(plan.devices, [&](std::size_t d) {
        for (std::size_t i : plan.pieces[d]) fixed_piece<P>(r, pieces[i], shares[i], results[i], total);
    });
    V root{};
    if (!join<P, A>(shares, results, total, G, root))
        throw error("preduce cuda backend: internal error: the parts of a multi-GPU fixed-order sum did not join");
    return r.finish(fixed_order::result<P, A>(root));
}

template <precision P, class R>
typename R::result_type reduce_pieces(const R& r, const std::vector<piece<source_t<R>>>& pieces, std::size_t n) {
    if constexpr (P == precision::fast) return reduce_fast(r, pieces);
    else return reduce_fixed<P>(r, pieces, n);
}

// ---- entry points -------------------------------------------------------------------------

// The number of GPUs options::gpus names (gpus != 1, checked by info::check_options): the
// first k visible devices, k = gpus or, for 0, all of them.
inline int gpus_for(const options& opts) { return opts.gpus == 0 ? info::visible_devices() : opts.gpus; }

// Whether options::gpus splits this input over several GPUs: host (pageable, pinned) and
// managed memory of at least the current device's multi_gpu_min_elements (tuning.hpp),
// with at least two GPUs named. Device memory lives on one GPU and is refused, rather than
// read by the others over the interconnect: reduce_parts spreads it.
template <std::size_t N>
bool splits(const placement<N>& where, std::size_t n, const options& opts) {
    if (opts.gpus == 1) return false;
    const int k = gpus_for(opts);
    if (where.any(memory_kind::device))
        throw invalid_argument("preduce::cuda: options::gpus = " + std::to_string(opts.gpus) +
                               " splits host data over several GPUs, but this input is in the memory of GPU " +
                               std::to_string(where.owner) +
                               "; use gpus = 1 for it, or give each GPU its part with preduce::cuda::reduce_parts");
    return k >= 2 && n >= current_tuning().multi_gpu_min_elements;
}

// src[0, n) of host or managed memory, split over the first gpus_for(opts) GPUs.
template <precision P, class R>
typename R::result_type reduce_split(const R& r, source_t<R> src, std::size_t n,
                                     const placement<columns<source_t<R>>::count>& where, const options& opts) {
    std::vector<piece<source_t<R>>> pieces;
    int device = 0;
    for (const range& part : split(n, static_cast<std::size_t>(gpus_for(opts))))
        pieces.push_back({device++, src + part.begin, part.size(), part.begin, where});
    return reduce_pieces<P>(r, pieces, n);
}

// Checks the parts of reduce_parts and turns them into pieces at their global positions.
template <class T>
std::vector<piece<const T*>> pieces_of(std::span<const device_part<T>> parts, const options& opts) {
    const auto where_part = [](std::size_t i) { return "preduce::cuda::reduce_parts: part " + std::to_string(i); };
    if (opts.stream != nullptr)
        throw invalid_argument("preduce::cuda::reduce_parts: options::stream is set, but a stream belongs to one GPU "
                               "and the parts may live on several; leave it unset");
    const int count = parts.empty() ? 0 : info::visible_devices();
    std::vector<piece<const T*>> pieces;
    std::size_t offset = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const device_part<T>& p = parts[i];
        if (p.device < 0 || p.device >= count)
            throw invalid_argument(where_part(i) + " names device " + std::to_string(p.device) + ", but " +
                                   std::to_string(count) + " GPU" + (count == 1 ? " is" : "s are") +
                                   " visible (devices 0 to " + std::to_string(count - 1) + ")");
        placement<1> where;
        if (p.n != 0) {
            if (p.data == nullptr)
                throw invalid_argument(where_part(i) + " has n = " + std::to_string(p.n) + " but data is null");
            if (reinterpret_cast<std::uintptr_t>(p.data) % alignof(T) != 0)
                throw invalid_argument(where_part(i) + ": data is not aligned to its element type (" +
                                       std::to_string(alignof(T)) + " bytes)");
            if (p.n > (std::numeric_limits<std::size_t>::max() - offset) / sizeof(T))
                throw invalid_argument(where_part(i) + ": n = " + std::to_string(p.n) +
                                       " elements exceeds the address space");
            // The first and the last element must be memory of that GPU (or managed memory):
            // catches a wrong device, host memory, and an n past the end of a small allocation.
            const T* const ends[2] = {p.data, p.data + (p.n - 1)};
            for (const T* at : ends) {
                cudaPointerAttributes attr{};
                check(cudaPointerGetAttributes(&attr, at), "cudaPointerGetAttributes");
                const bool ok = attr.type == cudaMemoryTypeManaged ||
                                (attr.type == cudaMemoryTypeDevice && attr.device == p.device);
                if (ok) {
                    where.where[0] = attr.type == cudaMemoryTypeManaged ? memory_kind::managed : memory_kind::device;
                    continue;
                }
                const std::string elem = at == p.data ? "data" : "data + n - 1 (n = " + std::to_string(p.n) + ")";
                std::string is;
                switch (attr.type) {
                case cudaMemoryTypeDevice: is = "memory of GPU " + std::to_string(attr.device); break;
                case cudaMemoryTypeHost: is = "pinned host memory"; break;
                default: is = "unregistered memory (pageable host memory, or past the end of an allocation)"; break;
                }
                throw invalid_argument(where_part(i) + ": " + elem + " is " + is + ", not memory of GPU " +
                                       std::to_string(p.device) +
                                       "; host data goes to preduce::cuda::reduce with options::gpus");
            }
        }
        pieces.push_back({p.device, p.data, p.n, offset, where});
        offset += p.n;
    }
    return pieces;
}

template <precision P, class R>
typename R::result_type reduce_parts_of(std::span<const device_part<typename R::value_type>> parts, const R& r,
                                        const options& opts) {
    static_assert(std::is_trivially_copyable_v<typename R::accumulator_type>,
                  "preduce::cuda: accumulators are copied back from the GPU bytewise and must be trivially copyable");
    const auto pieces = pieces_of(parts, opts);
    std::size_t n = 0;
    for (const auto& p : pieces) n += p.n;
    if (n == 0) return r.finish(R::identity());
    return reduce_pieces<P>(r, pieces, n);
}

} // namespace preduce::cuda::detail::multi
