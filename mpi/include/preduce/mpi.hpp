#pragma once
// preduce::mpi: one reduction over the data of every rank of an MPI communicator. Each
// rank reduces its own part with any backend (through the compiled front end); the
// partial results combine with one MPI collective.
//
//   auto s = preduce::mpi::allreduce(MPI_COMM_WORLD, backend::openmp, local, preduce::sum);
//   auto m = preduce::mpi::reduce(MPI_COMM_WORLD, backend::cuda, local, preduce::argmin, 0);
//
// The global sequence is rank 0's elements, then rank 1's, and so on; parts may be uneven
// or empty. Results follow the single-process semantics on that sequence:
//   - argmin/argmax report global positions (rank offset + local index), lowest on ties;
//   - NaN propagates through sum, min, max, argmin/argmax as it does locally;
//   - precision::deterministic gives the bits of a single-process run on the whole
//     sequence, for any number of ranks and any split (split_order.hpp);
//   - precision::compensated is refused: its partial sums carry error terms that the
//     compiled backends round away before returning.
// allreduce returns the result on every rank (the same bits on every rank); reduce
// returns it on root and std::nullopt elsewhere. A failure on any rank (bad input, a
// backend error) throws the same preduce exception on every rank, naming that rank.
// Every rank must make the same sequence of calls with the same op and options.
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <ranges>
#include <string>
#include <type_traits>
#include <vector>

#include "preduce/detail/backend_contract/entry.hpp"
#include "preduce/detail/runtime/residence.hpp"
#include "preduce/mpi/failure.hpp"
#include "preduce/mpi/partials.hpp"
#include "preduce/mpi/split_order.hpp"
#include "preduce/reduce.hpp"

namespace preduce::mpi {

namespace detail {

// The lifted elements at local positions [i, i + count), read through the driver when the
// data are in device memory (count < one 4096-element block: a fragment).
template <class R>
void lift_local(const R& r, const source_t<R>& src, std::size_t i, std::size_t count, std::uint64_t global,
                typename R::accumulator_type* out) {
    using V = typename R::value_type;
    std::vector<V> values(count);
    if constexpr (is_zip_source_v<source_t<R>>) {
        using X = std::remove_cvref_t<decltype(*src.first)>;
        using Y = std::remove_cvref_t<decltype(*src.second)>;
        std::vector<X> x(count);
        std::vector<Y> y(count);
        ::preduce::detail::copy_to_host(x.data(), src.first + i, count * sizeof(X));
        ::preduce::detail::copy_to_host(y.data(), src.second + i, count * sizeof(Y));
        for (std::size_t k = 0; k < count; ++k) values[k] = V{x[k], y[k]};
    } else {
        ::preduce::detail::copy_to_host(values.data(), src + i, count * sizeof(V));
    }
    for (std::size_t k = 0; k < count; ++k) out[k] = r.lift(values[k], static_cast<std::size_t>(global + k));
}

inline int rank_of(MPI_Comm comm) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    return rank;
}

template <class A>
void merge_states(void* in, void* inout, int* len, MPI_Datatype*) {
    auto* b = static_cast<split_state<A>*>(inout);
    try {
        append_states(static_cast<const split_state<A>*>(in), b, *len);
    } catch (...) {  // no exception may cross MPI's C frames
        for (int i = 0; i < *len; ++i) b[i].failed = 1;
    }
}

// precision::deterministic: every rank builds the split_state of its part (its complete
// aligned block runs reduced by the backend in the fixed order), one non-commutative
// collective joins them in rank order, and the root of the block tree is the result.
template <class R>
std::optional<typename R::result_type> reduce_in_fixed_order(MPI_Comm comm, backend b, source_t<R> src, std::size_t n,
                                                   const R& r, const options& opts, int root, const char* call) {
    using A = typename R::accumulator_type;
    static_assert(std::is_same_v<A, typename R::result_type>,
                  "the fixed-order sums return their accumulator unchanged, which the split order relies on");
    if (opts.precision == precision::compensated)
        throw invalid_argument(std::string(call) + ": precision::compensated is not available across ranks (its partial "
                               "sums carry error terms the backends round away); use precision::deterministic, which "
                               "gives the same bits for any number of ranks");
    std::exception_ptr err;
    try {
        ::preduce::detail::check_source(src, n);
    } catch (...) {
        err = std::current_exception();
    }
    const auto all = exchange(comm, {n, failure_code(err)});
    settle(comm, all, err, call);
    const int rank = rank_of(comm);
    std::uint64_t first = 0, total = 0;
    for (std::size_t k = 0; k < all.size(); ++k) {
        if (static_cast<int>(k) < rank) first += all[k].n;
        total += all[k].n;
    }

    std::unique_ptr<split_state<A>> state;
    try {
        state = fixed_order::tree_of_part<precision::deterministic, A>(
            total, first, n,
            [&](std::uint64_t pos, std::uint64_t count, A* out) {
                lift_local(r, src, static_cast<std::size_t>(pos - first), static_cast<std::size_t>(count), pos, out);
            },
            [&](std::uint64_t b0, std::uint64_t b1) -> A {  // complete blocks [b0, b1): elements up to the end at most
                const std::uint64_t from = b0 * fixed_order::block;
                const std::uint64_t to = std::min<std::uint64_t>(b1 * fixed_order::block, total);
                return ::preduce::detail::route(b, src + static_cast<std::size_t>(from - first),
                                                   static_cast<std::size_t>(to - from), r, opts);
            });
    } catch (...) {
        err = std::current_exception();
        state = fixed_order::empty_tree<precision::deterministic, A>(total, first);
        state->last = first + n;
        state->failed = 1;
    }
    auto combined = std::make_unique<split_state<A>>();
    const detail::user_op op(sizeof(split_state<A>), &merge_states<A>, false);
    if (root < 0) MPI_Allreduce(state.get(), combined.get(), 1, op.type(), op.op(), comm);
    else MPI_Reduce(state.get(), combined.get(), 1, op.type(), op.op(), root, comm);

    // Whether anything failed is known to the root only; tell everyone before anyone throws.
    std::uint32_t failed = (root < 0 || rank == root) ? combined->failed : 0;
    if (root >= 0) MPI_Bcast(&failed, 1, MPI_UINT32_T, root, comm);
    if (failed) {
        settle(comm, exchange(comm, {n, failure_code(err)}), err, call);
        throw error(std::string(call) + ": the parts' fixed-order states did not combine (internal error)");
    }
    if (root >= 0 && rank != root) return std::nullopt;
    A value{};
    if (!fixed_order::root_value(*combined, value))
        throw error(std::string(call) + ": the combined fixed-order state is incomplete (internal error)");
    return r.finish(fixed_order::result<precision::deterministic, A>(value));
}

// Every other operation and precision::fast: local result -> accumulator -> one collective.
template <class R>
std::optional<typename R::result_type> combine(MPI_Comm comm, backend b, source_t<R> src, std::size_t n,
                                               const R& r, const options& opts, int root, const char* call) {
    using A = typename R::accumulator_type;
    std::exception_ptr err;
    typename R::result_type local{};
    try {
        ::preduce::detail::check_source(src, n);
        local = ::preduce::detail::route(b, src, n, r, opts);
    } catch (...) {
        err = std::current_exception();
    }
    const auto all = exchange(comm, {n, failure_code(err)});
    settle(comm, all, err, call);
    const int rank = rank_of(comm);
    std::uint64_t offset = 0;
    for (int k = 0; k < rank; ++k) offset += all[static_cast<std::size_t>(k)].n;

    A acc = unfinish(r, local, offset);
    if constexpr (has_builtin_op<R>()) {
        if (root < 0) MPI_Allreduce(MPI_IN_PLACE, &acc, 1, builtin_type<A>(), builtin_op<R>(), comm);
        else MPI_Reduce(rank == root ? MPI_IN_PLACE : &acc, &acc, 1, builtin_type<A>(), builtin_op<R>(), root, comm);
    } else {
        // Reduce to one rank, then broadcast: a user combine in floating point (moments) need
        // not be bitwise commutative, and every rank must get the same bits.
        const user_op op(sizeof(A), &combine_fn<R>, is_commutative_v<R>);
        const int target = root < 0 ? 0 : root;
        A in = acc;
        MPI_Reduce(&in, &acc, 1, op.type(), op.op(), target, comm);
        if (root < 0) MPI_Bcast(&acc, 1, op.type(), target, comm);
    }
    if (root >= 0 && rank != root) return std::nullopt;
    return r.finish(acc);
}

template <class V, class Op>
auto run(MPI_Comm comm, backend b, source_t<::preduce::detail::resolved_t<V, Op>> src, std::size_t n, const Op& op,
         const options& opts, int root, const char* call)
    -> std::optional<result_of_t<V, Op>> {
    const auto reducer = ::preduce::detail::resolve_reducer<V>(op);
    using R = std::remove_cvref_t<decltype(reducer)>;
    ::preduce::detail::check_compiled<V, R>();
    check_comm(comm, root, call);
    std::optional<typename R::result_type> out;
    if constexpr (fixed_order::takes_fixed_order_v<R>) {
        if (opts.precision != precision::fast) out = reduce_in_fixed_order(comm, b, src, n, reducer, opts, root, call);
        else out = combine(comm, b, src, n, reducer, opts, root, call);
    } else {
        out = combine(comm, b, src, n, reducer, opts, root, call);
    }
    if (!out) return std::nullopt;
    return ::preduce::detail::project(op, *out);
}

inline void check_root(int root) {
    if (root < 0) throw invalid_argument("preduce::mpi::reduce: root " + std::to_string(root) + " is negative");
}

} // namespace detail

// ---- allreduce: the result on every rank ----

template <class T, operation_for<std::remove_const_t<T>> Op>
result_of_t<std::remove_const_t<T>, Op> allreduce(MPI_Comm comm, backend b, const T* data, std::size_t n, const Op& op,
                                                   const options& opts = {}) {
    using V = std::remove_const_t<T>;
    static_assert(is_builtin_element_v<V>, "preduce::mpi takes the element types of preduce::reduce");
    return *detail::run<V>(comm, b, static_cast<const V*>(data), n, op, opts, -1, "preduce::mpi::allreduce");
}

template <class A, class B, operation_for<zip_value<std::remove_const_t<A>, std::remove_const_t<B>>> Op>
auto allreduce(MPI_Comm comm, backend b, const A* x, const B* y, std::size_t n, const Op& op, const options& opts = {}) {
    using V = zip_value<std::remove_const_t<A>, std::remove_const_t<B>>;
    return *detail::run<V>(comm, b, source_t<::preduce::detail::resolved_t<V, Op>>{x, y}, n, op, opts, -1,
                           "preduce::mpi::allreduce");
}

template <std::ranges::contiguous_range Range, class Op>
    requires std::ranges::sized_range<Range> &&
             operation_for<Op, std::remove_cvref_t<std::ranges::range_value_t<Range>>>
auto allreduce(MPI_Comm comm, backend b, Range&& local, const Op& op, const options& opts = {}) {
    return allreduce(comm, b, std::ranges::data(local), static_cast<std::size_t>(std::ranges::size(local)), op, opts);
}

// ---- reduce: the result on root, std::nullopt on the other ranks ----

template <class T, operation_for<std::remove_const_t<T>> Op>
std::optional<result_of_t<std::remove_const_t<T>, Op>> reduce(MPI_Comm comm, backend b, const T* data, std::size_t n,
                                                               const Op& op, int root, const options& opts = {}) {
    using V = std::remove_const_t<T>;
    static_assert(is_builtin_element_v<V>, "preduce::mpi takes the element types of preduce::reduce");
    detail::check_root(root);
    return detail::run<V>(comm, b, static_cast<const V*>(data), n, op, opts, root, "preduce::mpi::reduce");
}

template <class A, class B, operation_for<zip_value<std::remove_const_t<A>, std::remove_const_t<B>>> Op>
auto reduce(MPI_Comm comm, backend b, const A* x, const B* y, std::size_t n, const Op& op, int root,
            const options& opts = {}) {
    using V = zip_value<std::remove_const_t<A>, std::remove_const_t<B>>;
    detail::check_root(root);
    return detail::run<V>(comm, b, source_t<::preduce::detail::resolved_t<V, Op>>{x, y}, n, op, opts, root,
                          "preduce::mpi::reduce");
}

template <std::ranges::contiguous_range Range, class Op>
    requires std::ranges::sized_range<Range> &&
             operation_for<Op, std::remove_cvref_t<std::ranges::range_value_t<Range>>>
auto reduce(MPI_Comm comm, backend b, Range&& local, const Op& op, int root, const options& opts = {}) {
    return reduce(comm, b, std::ranges::data(local), static_cast<std::size_t>(std::ranges::size(local)), op, root, opts);
}

} // namespace preduce::mpi
