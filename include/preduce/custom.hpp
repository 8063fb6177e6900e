#pragma once
// User-defined operations. A reducer (reducers.hpp) spells out everything a backend
// needs; a user operation only has to give the two things that define a reduction,
// in the style of Kokkos reducers and RAJA ops:
//
//   struct max_abs {
//       using value_type = float;                        // element type
//       static constexpr bool commutative = true;         // optional, default false
//       PREDUCE_HD static float identity() { return 0.0f; }                  // combine(e, a) == a
//       PREDUCE_HD static float combine(float a, float b) { return a < b ? b : a; }
//       PREDUCE_HD float lift(float x, std::size_t) const { return x < 0 ? -x : x; }  // optional
//   };
//
// Optional members: accumulator_type (default value_type), lift(x, index) or lift(x)
// (default: convert x to the accumulator), finish(acc) (default: the accumulator).
// identity() and combine() may be static or members of a default-constructed Op; lift
// and finish see the caller's object, so they may carry parameters. The accumulator
// must be trivially copyable (GPUs move it through shuffles and memcpy), and default-
// constructible for Kokkos (Views and lane arrays of it). For the CUDA
// backend every member must be __host__ __device__ (PREDUCE_HD); nvcc names the one
// that is not. Without `commutative = true` every backend returns the left fold's
// result in operand order, so associative but non-commutative operations (matrix
// products, concatenations) are safe by default.
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "preduce/detail/core/hd.hpp"
#include "preduce/reducers.hpp"

namespace preduce {

// Everything a backend calls, with the exact signatures it calls.
template <class R>
concept reducer = requires(const R& r, const typename R::value_type& v, const typename R::accumulator_type& a) {
    typename R::result_type;
    { R::identity() } -> std::convertible_to<typename R::accumulator_type>;
    { R::combine(a, a) } -> std::convertible_to<typename R::accumulator_type>;
    { r.lift(v, std::size_t{}) } -> std::convertible_to<typename R::accumulator_type>;
    { r.finish(a) } -> std::convertible_to<typename R::result_type>;
};

namespace detail {
template <class Op>
struct op_accumulator { using type = typename Op::value_type; };
template <class Op>
    requires requires { typename Op::accumulator_type; }
struct op_accumulator<Op> { using type = typename Op::accumulator_type; };
template <class Op>
using op_accumulator_t = typename op_accumulator<Op>::type;

template <class Op>
concept static_identity = requires { Op::identity(); };
template <class Op>
concept member_identity = std::is_default_constructible_v<Op> && requires(const Op& op) { op.identity(); };
template <class Op, class A>
concept static_combine = requires(const A& a) { Op::combine(a, a); };
template <class Op, class A>
concept member_combine = std::is_default_constructible_v<Op> && requires(const Op& op, const A& a) { op.combine(a, a); };
template <class Op, class V>
concept indexed_lift = requires(const Op& op, const V& v) { op.lift(v, std::size_t{}); };
template <class Op, class V>
concept plain_lift = requires(const Op& op, const V& v) { op.lift(v); };
template <class Op, class A>
concept has_finish = requires(const Op& op, const A& a) { op.finish(a); };

template <class Op, class A>
struct op_result { using type = A; };
template <class Op, class A>
    requires has_finish<Op, A>
struct op_result<Op, A> { using type = std::remove_cvref_t<decltype(std::declval<const Op&>().finish(std::declval<const A&>()))>; };
} // namespace detail

// The adapters below are __host__ __device__ under nvcc. One that calls a host-only member
// of the user's operation is only a warning to nvcc (#20011), and the kernel then silently
// computes nothing; made an error here (nvcc applies the state where a template is defined).
#if defined(__NVCC_DIAG_PRAGMA_SUPPORT__)
#pragma nv_diagnostic push
#pragma nv_diag_error 20011
#endif

// A user operation completed into a reducer.
template <class Op>
struct user_reducer {
    using value_type = typename Op::value_type;
    using accumulator_type = detail::op_accumulator_t<Op>;
    using result_type = typename detail::op_result<Op, accumulator_type>::type;
    static constexpr combine_kind kind = combine_kind::custom;
    static constexpr bool commutative = is_commutative_v<Op>;
    static constexpr const char* name = "custom";

    Op op;

    PREDUCE_HD static constexpr accumulator_type identity() {
        if constexpr (detail::static_identity<Op>) return Op::identity();
        else return Op{}.identity();
    }
    PREDUCE_HD static constexpr accumulator_type combine(const accumulator_type& a, const accumulator_type& b) {
        if constexpr (detail::static_combine<Op, accumulator_type>) return Op::combine(a, b);
        else return Op{}.combine(a, b);
    }
    PREDUCE_HD constexpr accumulator_type lift(const value_type& x, std::size_t i) const {
        if constexpr (detail::indexed_lift<Op, value_type>) return op.lift(x, i);
        else if constexpr (detail::plain_lift<Op, value_type>) return op.lift(x);
        else return accumulator_type(x);
    }
    PREDUCE_HD constexpr result_type finish(const accumulator_type& a) const {
        if constexpr (detail::has_finish<Op, accumulator_type>) return op.finish(a);
        else return a;
    }
};

// A reducer for x: x itself when it already is one, else x completed as a user operation,
// with a compile-time error that says what is missing.
template <class X>
constexpr auto as_reducer(const X& x) {
    if constexpr (reducer<X>) {
        return x;
    } else {
        static_assert(requires { typename X::value_type; },
                      "preduce: a custom operation needs `using value_type = <element type>;`");
        using A = detail::op_accumulator_t<X>;
        static_assert(detail::static_identity<X> || detail::member_identity<X>,
                      "preduce: the operation has no identity(): add `static A identity()` returning the "
                      "value e with combine(e, a) == combine(a, e) == a (e.g. 0 for +, -inf for max)");
        static_assert(detail::static_combine<X, A> || detail::member_combine<X, A>,
                      "preduce: the operation has no combine(A, A) callable with its accumulator type A "
                      "(accumulator_type, or value_type when there is none)");
        static_assert(std::is_trivially_copyable_v<A>,
                      "preduce: the accumulator type must be trivially copyable (GPUs move it bytewise)");
        static_assert(detail::indexed_lift<X, typename X::value_type> || detail::plain_lift<X, typename X::value_type> ||
                          std::is_constructible_v<A, const typename X::value_type&>,
                      "preduce: the operation has no lift(value_type[, index]) and its accumulator cannot be "
                      "constructed from an element");
        return user_reducer<X>{x};
    }
}

// transform(f, op): each element x is reduced as f(x). V is the element type, Inner the
// reducer of op for f's result type.
template <class V, class F, class Inner>
struct transformed_reducer {
    using value_type = V;
    using accumulator_type = typename Inner::accumulator_type;
    using result_type = typename Inner::result_type;
    static constexpr combine_kind kind = Inner::kind;
    static constexpr bool commutative = is_commutative_v<Inner>;
    static constexpr const char* name = "transform";

    F f;
    Inner inner;

    PREDUCE_HD static constexpr accumulator_type identity() { return Inner::identity(); }
    PREDUCE_HD static constexpr accumulator_type combine(const accumulator_type& a, const accumulator_type& b) {
        return Inner::combine(a, b);
    }
    PREDUCE_HD constexpr accumulator_type lift(const V& x, std::size_t i) const { return inner.lift(f(x), i); }
    PREDUCE_HD constexpr result_type finish(const accumulator_type& a) const { return inner.finish(a); }
    // The inner reducer's resume (reducers.hpp), where it has one: a result is the inner one's.
    constexpr accumulator_type resume(const result_type& r, std::uint64_t offset) const
        requires requires(const Inner& i, const result_type& x, std::uint64_t o) { i.resume(x, o); }
    {
        return inner.resume(r, offset);
    }
};

#if defined(__NVCC_DIAG_PRAGMA_SUPPORT__)
#pragma nv_diagnostic pop
#endif

} // namespace preduce
