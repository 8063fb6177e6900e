#pragma once
// One reduction over several GPUs of this process (options::gpus, reduce_parts). Each GPU
// reduces its contiguous part on a host thread of its own (device_workers below), all at
// the same time, with the single-GPU machinery (in place, or through that thread's host
// staging pipeline); the host combines the parts in input order.
//
//  - fast order: each part leaves its accumulator, not its finished result (Finish = false
//    in dispatch.cuh / host_staging.cuh); the host folds the accumulators left to right
//    with R::combine and finishes once, so non-commutative reducers keep operand order,
//    and every part lifts its elements with their global positions (base), so argmin and
//    argmax report global indices with the lowest index winning ties.
//  - fixed order (deterministic, compensated): defined on global element positions
//    (detail/deterministic.hpp). A part computes the values of the 4096-element blocks that
//    lie wholly inside it and folds the aligned groups of tree_group blocks that lie wholly
//    inside those (whole subtrees of the block tree, fixed::enqueue_groups); it sends the
//    group values and the remaining block values (fewer than 2 groups' worth) to the host,
//    plus its elements of blocks it shares with a neighbour part (reduce_parts only). The
//    host computes those shared blocks (det::block_value) and the top of the tree
//    (parts_plan.hpp): the bits of one GPU and of the seq backend.
//
// One host thread per GPU rather than one thread driving every GPU's stream: the host
// data path blocks its thread while it copies pageable memory into pinned staging, and a
// GPU's thread-local caches (staging buffers, workspace, per-thread stream) then stay
// with that GPU's thread for the life of the process.
#include <cuda_runtime_api.h>

#include <array>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "preduce/cuda/check.hpp"
#include "preduce/cuda/dispatch.cuh"
#include "preduce/cuda/fixed_order.cuh"
#include "preduce/cuda/host_staging.cuh"
#include "preduce/cuda/memory.hpp"
#include "preduce/cuda/parts_plan.hpp"
#include "preduce/cuda/residence.hpp"
#include "preduce/detail/deterministic.hpp"
#include "preduce/errors.hpp"
#include "preduce/options.hpp"
#include "preduce/precision.hpp"
#include "preduce/source.hpp"

namespace preduce::cuda::detail::multi {

// One resident host thread per GPU, created at first use. Jobs run in submission order on
// their GPU's thread.
class device_workers {
public:
    static device_workers& instance() {
        // Never destroyed: the threads keep CUDA objects in thread-local caches (pinned
        // staging, workspace), which must not be torn down from static destructors after
        // the CUDA runtime's own exit handlers; idle threads block on a condition variable
        // and end with the process.
        static device_workers* w = new device_workers;
        return *w;
    }

    // Runs job(i) on the thread of devices[i] (distinct devices), all at once, and waits for
    // every one; then rethrows the first failure in index order.
    void run_all(const std::vector<int>& devices, const std::function<void(std::size_t)>& job) {
        struct shared_state {
            std::mutex m;
            std::condition_variable cv;
            std::size_t left = 0;
            std::vector<std::exception_ptr> errors;
        } st;
        st.left = devices.size();
        st.errors.resize(devices.size());
        for (std::size_t i = 0; i < devices.size(); ++i) {
            const int device = devices[i];
            worker_for(device).post([&st, &job, i, device] {
                try {
                    check(cudaSetDevice(device), "cudaSetDevice");
                    job(i);
                } catch (...) {
                    st.errors[i] = std::current_exception();
                }
                // Notify while holding the lock: once left reaches 0 the caller may return and
                // destroy st.
                const std::lock_guard<std::mutex> lock(st.m);
                --st.left;
                st.cv.notify_all();
            });
        }
        {
            std::unique_lock<std::mutex> lock(st.m);
            st.cv.wait(lock, [&] { return st.left == 0; });
        }
        for (const auto& e : st.errors)
            if (e) std::rethrow_exception(e);
    }

private:
    class worker {
    public:
        worker() : thread_([this] { loop(); }) { thread_.detach(); }
        void post(std::function<void()> task) {
            {
                const std::lock_guard<std::mutex> lock(m_);
                queue_.push_back(std::move(task));
            }
            cv_.notify_one();
        }

    private:
        void loop() {
            for (;;) {
                std::function<void()> task;
                {
                    std::unique_lock<std::mutex> lock(m_);
                    cv_.wait(lock, [&] { return !queue_.empty(); });
                    task = std::move(queue_.front());
                    queue_.pop_front();
                }
                task();  // never throws: run_all's wrapper catches
            }
        }
        std::mutex m_;
        std::condition_variable cv_;
        std::deque<std::function<void()>> queue_;
        std::thread thread_;
    };

    worker& worker_for(int device) {
        const std::lock_guard<std::mutex> lock(m_);
        auto& w = workers_[device];
        if (!w) w = std::make_unique<worker>();
        return *w;
    }

    std::mutex m_;
    std::map<int, std::unique_ptr<worker>> workers_;
};

inline int visible_devices() {
    int count = 0;
    check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
    return count;
}

// The devices options::gpus names (gpus != 1): the first k visible devices, k = gpus or,
// for 0, all of them. Refuses what cannot be honoured.
inline int gpus_for(const options& opts) {
    if (opts.gpus < 0)
        throw invalid_argument("preduce::cuda: options::gpus = " + std::to_string(opts.gpus) +
                               "; use 1 (the current GPU), k > 1 (the first k visible GPUs) or 0 (all visible GPUs)");
    if (opts.stream != nullptr)
        throw invalid_argument("preduce::cuda: options::stream is set together with options::gpus = " +
                               std::to_string(opts.gpus) +
                               "; a stream belongs to one GPU: leave stream unset to split over GPUs, or use gpus = 1");
    const int count = visible_devices();
    if (opts.gpus > count)
        throw invalid_argument("preduce::cuda: options::gpus = " + std::to_string(opts.gpus) + " but " +
                               std::to_string(count) + " GPU" + (count == 1 ? " is" : "s are") +
                               " visible (CUDA_VISIBLE_DEVICES selects them); use at most " + std::to_string(count) +
                               ", or 0 for all of them");
    return opts.gpus == 0 ? count : opts.gpus;
}

// One part of a multi-GPU reduction: elements [offset, offset + n) of the whole input, at src.
template <class S>
struct piece {
    int device;
    S src;
    std::size_t n;
    std::size_t offset;
};

// Which of src's arrays the current device cannot read in place and must stage: pageable
// host memory, and pinned host memory not mapped into this device's address space.
template <class S>
std::array<bool, columns<S>::count> staged_arrays(const S& src) {
    std::array<bool, columns<S>::count> staged{};
    const auto arrays = columns<S>::of(src);
    for (std::size_t c = 0; c < arrays.size(); ++c) {
        cudaPointerAttributes attr{};
        check(cudaPointerGetAttributes(&attr, arrays[c]), "cudaPointerGetAttributes");
        switch (attr.type) {
        case cudaMemoryTypeDevice:
        case cudaMemoryTypeManaged: break;
        case cudaMemoryTypeHost: staged[c] = attr.devicePointer == nullptr; break;
        default: staged[c] = true; break;
        }
    }
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
    const auto staged = staged_arrays(p.src);
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

// What a piece sends to the host.
template <class V>
struct fixed_result {
    std::vector<V> head, groups, tail;
};

template <precision P, class R>
void fixed_piece(const R& r, const piece<source_t<R>>& p, const fixed_share& share,
                 fixed_result<det::value_t<P, typename R::accumulator_type>>& out,
                 straddles<typename R::value_type>* gaps, std::size_t total) {
    using V = det::value_t<P, typename R::accumulator_type>;
    using S = source_t<R>;
    constexpr std::size_t G = fixed::tree_group<V>;
    cudaStream_t s = cudaStreamPerThread;
    const std::size_t m_part = share.blocks.size();
    if (m_part > 0) {
        const std::size_t first = share.blocks.begin * det::block;                    // global position
        const std::size_t len = std::min(share.blocks.end * det::block, total) - first;
        const S src = p.src + (first - p.offset);
        const auto staged = staged_arrays(src);
        const std::size_t n_groups = share.groups.size();
        device_buffer values((m_part + n_groups) * sizeof(V), s);
        V* v = values.as<V>();
        V* g = v + m_part;
        if (any_of(staged)) stage_fixed_blocks<P>(r, src, len, first, staged, v, s, [] {});
        else fixed::enqueue_blocks<P>(r, src, len, first, v, s);
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
    // This piece's elements of blocks it shares with its neighbours, block by block (a piece
    // shorter than two blocks may touch two).
    for (const range& e : {share.lead, share.trail}) {
        for (std::size_t at = e.begin; at < e.end;) {
            const std::size_t stop = std::min(e.end, (at / det::block + 1) * det::block);
            if constexpr (std::is_pointer_v<S>) {
                check(cudaMemcpy(gaps->slot(at), p.src + (at - p.offset), (stop - at) * sizeof(typename R::value_type),
                                 cudaMemcpyDefault),
                      "cudaMemcpy (straddling block)");
            } else {
                // Two-array sources come only from the block-aligned split of host data.
                throw error("preduce cuda backend: internal error: a two-array part is not block-aligned");
            }
            at = stop;
        }
    }
}

template <precision P, class R>
typename R::result_type reduce_fixed(const R& r, const std::vector<piece<source_t<R>>>& pieces, std::size_t total) {
    using A = typename R::accumulator_type;
    using V = det::value_t<P, A>;
    constexpr std::size_t G = fixed::tree_group<V>;
    if (total == 0) return r.finish(R::identity());  // what the single-GPU fixed order gives
    std::vector<fixed_share> shares(pieces.size());
    straddles<typename R::value_type> gaps(total);
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (pieces[i].n == 0) continue;
        shares[i] = fixed_share_of(pieces[i].offset, pieces[i].n, total, G);
        gaps.add_range(shares[i].lead);
        gaps.add_range(shares[i].trail);
    }
    std::vector<fixed_result<V>> results(pieces.size());
    const by_device<source_t<R>> plan(pieces);
    device_workers::instance().run_all(plan.devices, [&](std::size_t d) {
        for (std::size_t i : plan.pieces[d]) fixed_piece<P>(r, pieces[i], shares[i], results[i], &gaps, total);
    });
    fixed_assembly<P, A> tree(det::block_count(total), G);
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (pieces[i].n == 0) continue;
        const fixed_share& sh = shares[i];
        for (std::size_t k = 0; k < results[i].head.size(); ++k) tree.add_block(sh.blocks.begin + k, results[i].head[k]);
        for (std::size_t k = 0; k < results[i].groups.size(); ++k) tree.add_group(sh.groups.begin + k, results[i].groups[k]);
        for (std::size_t k = 0; k < results[i].tail.size(); ++k) tree.add_block(sh.tail_begin + k, results[i].tail[k]);
    }
    if constexpr (std::is_pointer_v<source_t<R>>)  // only reduce_parts (one array) has straddling blocks
        for (const auto& [b, elements] : gaps.blocks()) tree.add_block(b, straddle_value<P>(r, b, elements));
    return r.finish(det::result<P, A>(tree.finish(R::identity())));
}

// ---- entry points -------------------------------------------------------------------------

// src[0, n) of host (pageable, pinned) or managed memory as pieces for the first k GPUs.
template <class S>
std::vector<piece<S>> split_pieces(S src, std::size_t n, int k) {
    std::vector<piece<S>> pieces;
    int device = 0;
    for (const range& part : split(n, static_cast<std::size_t>(k)))
        pieces.push_back({device++, src + part.begin, part.size(), part.begin});
    return pieces;
}

} // namespace preduce::cuda::detail::multi
