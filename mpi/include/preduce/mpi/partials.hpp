#pragma once
// What one rank contributes to the collective, and how two contributions combine.
// A rank's local result is turned back into the reducer's accumulator (unfinish), the
// accumulators combine with R::combine, and finish() runs once on the combined value:
// every rank then gets exactly what a single process would from the same combine tree.
// MPI's built-in operations are used where they are R::combine: + and * on unsigned
// wrap-around integers and on IEEE floats, min/max on integers and on the order-preserving
// keys that float min/max run on (NaN maps to the winning key, so MPI_MIN/MPI_MAX
// propagate NaN without a user function). Everything else (argmin/argmax, moments, fused
// results) is a user-defined MPI_Op over the accumulator's bytes.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "preduce/fused.hpp"
#include "preduce/reducers.hpp"
#include "preduce/transforms.hpp"

namespace preduce::mpi::detail {

// The accumulator a local result stands for, by the reducer's own resume() (reducers.hpp);
// offset (the rank's first global position) turns local indices into global ones. A
// reducer of the caller's without resume() must be a plain sum or product (kind plus or
// times), whose result is its accumulator.
template <class R>
typename R::accumulator_type unfinish(const R& r, const typename R::result_type& res, std::uint64_t offset) {
    if constexpr (requires { r.resume(res, offset); }) {
        return r.resume(res, offset);
    } else {
        static_assert(R::kind == combine_kind::plus || R::kind == combine_kind::times,
                      "preduce::mpi: the reducer has no resume(result, offset) (reducers.hpp), and its result is not "
                      "its accumulator");
        return static_cast<typename R::accumulator_type>(res);
    }
}

template <class A>
MPI_Datatype builtin_type() {
    if constexpr (std::is_same_v<A, float>) return MPI_FLOAT;
    else if constexpr (std::is_same_v<A, double>) return MPI_DOUBLE;
    else if constexpr (std::is_same_v<A, std::int32_t>) return MPI_INT32_T;
    else if constexpr (std::is_same_v<A, std::uint32_t>) return MPI_UINT32_T;
    else if constexpr (std::is_same_v<A, std::int64_t>) return MPI_INT64_T;
    else if constexpr (std::is_same_v<A, std::uint64_t>) return MPI_UINT64_T;
    else return MPI_DATATYPE_NULL;
}

// Whether MPI's built-in operation on A is R::combine.
template <class R>
constexpr bool has_builtin_op() {
    using A = typename R::accumulator_type;
    constexpr bool known = std::is_same_v<A, float> || std::is_same_v<A, double> || std::is_same_v<A, std::int32_t> ||
                           std::is_same_v<A, std::uint32_t> || std::is_same_v<A, std::int64_t> ||
                           std::is_same_v<A, std::uint64_t>;
    if constexpr (!known) return false;  // structured accumulators (argmin, moments, fused packs)
    else if constexpr (R::kind == combine_kind::min || R::kind == combine_kind::max) return std::is_integral_v<A>;
    else return R::kind == combine_kind::plus || R::kind == combine_kind::times;
}

template <class R>
MPI_Op builtin_op() {
    switch (R::kind) {
    case combine_kind::plus: return MPI_SUM;
    case combine_kind::times: return MPI_PROD;
    case combine_kind::min: return MPI_MIN;
    case combine_kind::max: return MPI_MAX;
    default: return MPI_OP_NULL;
    }
}

// MPI's contract: inout[i] = in[i] op inout[i], with in from the lower ranks.
template <class R>
void combine_fn(void* in, void* inout, int* len, MPI_Datatype*) {
    using A = typename R::accumulator_type;
    const auto* a = static_cast<const A*>(in);
    auto* b = static_cast<A*>(inout);
    for (int i = 0; i < *len; ++i) b[i] = R::combine(a[i], b[i]);
}

// A committed datatype of `bytes` opaque bytes and a user operation, freed on scope exit.
class user_op {
public:
    user_op(std::size_t bytes, MPI_User_function* fn, bool commutative) {
        MPI_Type_contiguous(static_cast<int>(bytes), MPI_BYTE, &type_);
        MPI_Type_commit(&type_);
        MPI_Op_create(fn, commutative ? 1 : 0, &op_);
    }
    user_op(const user_op&) = delete;
    user_op& operator=(const user_op&) = delete;
    ~user_op() {
        MPI_Op_free(&op_);
        MPI_Type_free(&type_);
    }
    MPI_Datatype type() const { return type_; }
    MPI_Op op() const { return op_; }

private:
    MPI_Datatype type_ = MPI_DATATYPE_NULL;
    MPI_Op op_ = MPI_OP_NULL;
};

} // namespace preduce::mpi::detail
