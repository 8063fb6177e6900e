#pragma once
// The built-in operations as reducers: identity, lift (element -> accumulator),
// combine (associative; commutative for every built-in) and finish (accumulator ->
// result). Backends only ever call these four, which is what keeps them in agreement.
//
// Everything else that is known of an operation is said here too, and read by every part of
// preduce that needs it (none keeps a list of its own):
//   name, help               the operation's name and one line about it (the CLI's --op)
//   kind, commutative        what combine is (OpenMP's clauses, Kokkos' and MPI's built-in
//                            operations), and whether operands may be reordered
//   compares                 min/max-like: backend::automatic's comparisons family
//                            (operation_family.hpp); kind min/max imply it
//   lift_is_exact            lift() never rounds (the fixed order then adds it straight
//                            into its lanes: detail/algorithm/fixed_order/order.hpp)
//   same_bits_as             another reducer whose results have these bits: the compiled
//                            built-ins compute it once (detail/backend_contract/same_bits.hpp)
//   resume(result, offset)   the accumulator a finished result stands for, with its
//                            indices moved by offset: how partial results of MPI ranks
//                            combine (preduce::mpi)
// Exactness is what the accumulator says: integers, order keys and (value, index) pairs
// give the same bits in every order; floating-point sums (kind plus) take the fixed order
// under precision::deterministic / compensated (detail/algorithm/fixed_order/order.hpp).
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "preduce/detail/core/elements.hpp"
#include "preduce/detail/core/hd.hpp"
#include "preduce/detail/core/numeric.hpp"

namespace preduce {

// Index reported by argmin/argmax of an empty input.
inline constexpr std::size_t no_index = std::numeric_limits<std::size_t>::max();

template <class T>
struct arg_result {
    T value;
    std::size_t index;  // position of value in the input; no_index when the input is empty
    friend constexpr bool operator==(const arg_result&, const arg_result&) = default;
};

// What a backend may exploit about combine(): plus/times/min/max are the plain
// arithmetic operations (OpenMP clauses, MPI built-in ops); custom means "call combine".
enum class combine_kind { plus, times, min, max, custom };

// Whether combine(a, b) == combine(b, a), so that a backend may fold elements in any
// order (SIMD lanes, striped GPU loads, OpenMP's reduction clause). A reducer says so with
// `static constexpr bool commutative = true`; without it, every backend keeps operand
// order: the result is that of the left fold x0 . x1 . ... . x(n-1), bracketed freely.
template <class R>
inline constexpr bool is_commutative_v = [] {
    if constexpr (requires { R::commutative; }) return static_cast<bool>(R::commutative);
    else return false;
}();

// Element types reduce() accepts through the compiled front end (detail/core/elements.hpp).
template <class T>
inline constexpr bool is_builtin_element_v = false;
#define PREDUCE_MARK_BUILTIN_ELEMENT(T) \
    template <>                         \
    inline constexpr bool is_builtin_element_v<T> = true;
PREDUCE_FOR_EACH_BUILTIN_ELEMENT(PREDUCE_MARK_BUILTIN_ELEMENT)
#undef PREDUCE_MARK_BUILTIN_ELEMENT

// Accumulator of wide_sum: floats of every width -> double, narrower integers -> 64-bit;
// 64-bit types keep their width.
template <class T>
using wide_t = std::conditional_t<detail::is_float_element_v<T>, double,
                                  std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>>;

// Sums and products accumulate in, and return, detail::compute_t<T>: T itself, except
// float for 16-bit floats and 64 bits for 8- and 16-bit integers.
namespace detail {
// Signed 32- and 64-bit integers: their sums and products wrap in the unsigned twin, which
// the unsigned type's reducer computes with the same bits.
template <class T>
inline constexpr bool has_unsigned_twin_v = std::is_integral_v<T> && std::is_signed_v<T> && sizeof(T) >= 4;
template <template <class> class Red, class T>
struct unsigned_twin {
    using type = Red<T>;
};
template <template <class> class Red, class T>
    requires has_unsigned_twin_v<T>
struct unsigned_twin<Red, T> {
    using type = Red<std::make_unsigned_t<T>>;
};
template <template <class> class Red, class T>
using unsigned_twin_t = typename unsigned_twin<Red, T>::type;

// The accumulator a finished sum, product or count stands for.
template <class R>
PREDUCE_HD constexpr typename R::accumulator_type resume_scalar(const typename R::result_type& r) noexcept {
    return static_cast<typename R::accumulator_type>(r);
}
} // namespace detail

template <class T>
struct sum_reducer {
    using value_type = T;
    using accumulator_type = detail::wrap_t<detail::compute_t<T>>;
    using result_type = detail::compute_t<T>;
    using same_bits_as = detail::unsigned_twin_t<sum_reducer, T>;
    static constexpr combine_kind kind = combine_kind::plus;
    static constexpr bool commutative = true;
    static constexpr bool lift_is_exact = true;
    static constexpr const char* name = "sum";
    static constexpr const char* help = "sum; floats in the element type (float16/bfloat16 in float32), integers wrap "
                                        "(8/16-bit ones in 64 bits)";
    PREDUCE_HD static constexpr accumulator_type identity() noexcept { return detail::additive_identity<accumulator_type>(); }
    PREDUCE_HD constexpr accumulator_type lift(T x, std::size_t) const noexcept { return accumulator_type(detail::widen(x)); }
    PREDUCE_HD static constexpr accumulator_type combine(accumulator_type a, accumulator_type b) noexcept { return a + b; }
    PREDUCE_HD constexpr result_type finish(accumulator_type a) const noexcept { return static_cast<result_type>(a); }
    PREDUCE_HD constexpr accumulator_type resume(result_type r, std::uint64_t) const noexcept {
        return detail::resume_scalar<sum_reducer>(r);
    }
};

template <class T>
struct wide_sum_reducer {
    using value_type = T;
    using accumulator_type = detail::wrap_t<wide_t<T>>;
    using result_type = wide_t<T>;
    // 64-bit types and double keep their width: their wide sum is their sum.
    using same_bits_as = std::conditional_t<sizeof(T) == 8, sum_reducer<T>, wide_sum_reducer>;
    static constexpr combine_kind kind = combine_kind::plus;
    static constexpr bool commutative = true;
    static constexpr bool lift_is_exact = true;
    static constexpr const char* name = "wide_sum";
    static constexpr const char* help = "sum in a wider type: floats in float64, integers in 64 bits";
    PREDUCE_HD static constexpr accumulator_type identity() noexcept { return detail::additive_identity<accumulator_type>(); }
    // Sign-extend first (int32 -> int64), then reinterpret as the unsigned twin.
    PREDUCE_HD constexpr accumulator_type lift(T x, std::size_t) const noexcept {
        return accumulator_type(static_cast<result_type>(detail::widen(x)));
    }
    PREDUCE_HD static constexpr accumulator_type combine(accumulator_type a, accumulator_type b) noexcept { return a + b; }
    PREDUCE_HD constexpr result_type finish(accumulator_type a) const noexcept { return static_cast<result_type>(a); }
    PREDUCE_HD constexpr accumulator_type resume(result_type r, std::uint64_t) const noexcept {
        return detail::resume_scalar<wide_sum_reducer>(r);
    }
};

template <class T>
struct prod_reducer {
    using value_type = T;
    using accumulator_type = detail::wrap_t<detail::compute_t<T>>;
    using result_type = detail::compute_t<T>;
    using same_bits_as = detail::unsigned_twin_t<prod_reducer, T>;
    static constexpr combine_kind kind = combine_kind::times;
    static constexpr bool commutative = true;
    static constexpr const char* name = "prod";
    static constexpr const char* help = "product, accumulated as sum accumulates";
    PREDUCE_HD static constexpr accumulator_type identity() noexcept { return accumulator_type(1); }
    PREDUCE_HD constexpr accumulator_type lift(T x, std::size_t) const noexcept { return accumulator_type(detail::widen(x)); }
    PREDUCE_HD static constexpr accumulator_type combine(accumulator_type a, accumulator_type b) noexcept { return a * b; }
    PREDUCE_HD constexpr result_type finish(accumulator_type a) const noexcept { return static_cast<result_type>(a); }
    PREDUCE_HD constexpr accumulator_type resume(result_type r, std::uint64_t) const noexcept {
        return detail::resume_scalar<prod_reducer>(r);
    }
};

namespace detail {
// min/max identities: +-inf for floats (never numeric_limits::min(), the smallest
// positive normal), max()/lowest() for integers.
template <class T>
PREDUCE_HD constexpr T min_identity() noexcept {
    if constexpr (is_float_element_v<T>) return infinity<T>();
    else return std::numeric_limits<T>::max();
}
template <class T>
PREDUCE_HD constexpr T max_identity() noexcept {
    if constexpr (is_float_element_v<T>) return negative_infinity<T>();
    else return std::numeric_limits<T>::lowest();
}

// NaN wins (NumPy's rule); otherwise the ordered_less winner. Integers compare as they
// are. Floats are first mapped to an unsigned key whose integer order is ordered_less
// (-0.0 below +0.0), with every NaN mapped to the key that wins (all ones for max, zero
// for min): combine is then one integer max/min, which OpenMP's clause, Kokkos' reducer
// and the GPU's IMNMX do natively, with no NaN branches. finish() maps back and reports
// any NaN as the canonical quiet NaN, so the result bits do not depend on the tree.
template <class T, bool Max>
struct extremum_reducer {
    using value_type = T;
    using accumulator_type = T;
    using result_type = T;
    static constexpr combine_kind kind = Max ? combine_kind::max : combine_kind::min;
    static constexpr bool commutative = true;
    PREDUCE_HD static constexpr T identity() noexcept { return Max ? max_identity<T>() : min_identity<T>(); }
    PREDUCE_HD constexpr T lift(T x, std::size_t) const noexcept { return x; }
    PREDUCE_HD static constexpr T combine(T a, T b) noexcept {
        if constexpr (Max) return a < b ? b : a;
        else return b < a ? b : a;
    }
    PREDUCE_HD constexpr T finish(T a) const noexcept { return a; }
    PREDUCE_HD constexpr T resume(T r, std::uint64_t) const noexcept { return r; }
};

template <class T, bool Max>
    requires is_float_element_v<T>
struct extremum_reducer<T, Max> {
    using value_type = T;
    using accumulator_type = bits_t<T>;
    using result_type = T;
    using K = accumulator_type;
    static constexpr combine_kind kind = Max ? combine_kind::max : combine_kind::min;
    static constexpr bool commutative = true;
    static constexpr K sign = static_cast<K>(K(1) << (8 * sizeof(K) - 1));
    static constexpr K nan_key = static_cast<K>(Max ? ~K(0) : K(0));

    // Branch-free: a branch on the sign mispredicts half the time on mixed-sign data.
    // Negative: all bits flipped; positive: sign bit set (the usual order-preserving key
    // of IEEE floats).
    PREDUCE_HD static constexpr K key(T x) noexcept {
        const K bits = std::bit_cast<K>(x);
        const K neg = static_cast<K>(static_cast<std::make_signed_t<K>>(bits) >> (8 * sizeof(K) - 1));
        return static_cast<K>(bits ^ (neg | sign));
    }
    PREDUCE_HD static constexpr T value(K k) noexcept {
        return std::bit_cast<T>(static_cast<K>((k & sign) ? (k & ~sign) : ~k));
    }

    PREDUCE_HD static constexpr K identity() noexcept { return key(Max ? max_identity<T>() : min_identity<T>()); }
    PREDUCE_HD constexpr K lift(T x, std::size_t) const noexcept { return is_nan(x) ? nan_key : key(x); }
    PREDUCE_HD static constexpr K combine(K a, K b) noexcept {
        if constexpr (Max) return a < b ? b : a;
        else return b < a ? b : a;
    }
    PREDUCE_HD constexpr T finish(K k) const noexcept {
        return k == nan_key ? quiet_nan<T>() : value(k);
    }
    // Any NaN result is the winning key.
    PREDUCE_HD constexpr K resume(T r, std::uint64_t) const noexcept { return lift(r, 0); }
};

// Value and index. A NaN beats every number; between equals (and between NaNs) the
// lower index wins, decided here so that no tree shape can change the answer. The
// identity carries no_index, the largest index, so it loses every tie with real data.
template <class T, bool Max>
struct arg_extremum_reducer {
    using value_type = T;
    using accumulator_type = arg_result<T>;
    using result_type = arg_result<T>;
    static constexpr combine_kind kind = combine_kind::custom;
    static constexpr bool commutative = true;  // ties go to the lower index, whatever the operand order
    PREDUCE_HD static constexpr accumulator_type identity() noexcept {
        return {Max ? max_identity<T>() : min_identity<T>(), no_index};
    }
    PREDUCE_HD constexpr accumulator_type lift(T x, std::size_t i) const noexcept { return {x, i}; }
    PREDUCE_HD static accumulator_type combine(accumulator_type a, accumulator_type b) noexcept {
        if constexpr (std::is_floating_point_v<T>) {
            const bool an = is_nan(a.value), bn = is_nan(b.value);
            if (an || bn) {
                if (an && bn) return b.index < a.index ? b : a;
                return an ? a : b;
            }
        }
        const bool b_better = Max ? ordered_less(a.value, b.value) : ordered_less(b.value, a.value);
        const bool a_better = Max ? ordered_less(b.value, a.value) : ordered_less(a.value, b.value);
        if (b_better) return b;
        if (a_better) return a;
        return b.index < a.index ? b : a;
    }
    PREDUCE_HD accumulator_type finish(accumulator_type a) const noexcept {
        if (is_nan(a.value)) a.value = std::numeric_limits<T>::quiet_NaN();
        return a;
    }
    PREDUCE_HD constexpr accumulator_type resume(result_type r, std::uint64_t offset) const noexcept {
        return {r.value, r.index == no_index ? no_index : static_cast<std::size_t>(r.index + offset)};
    }
};
// Floats: the same rules on the order-preserving keys of extremum_reducer, with every NaN
// mapped to the key that wins (0 for argmin, all ones for argmax). Ties of keys (equal
// values, or two NaNs) go to the lower index, so "first NaN wins" and "-0 below +0" need
// no float compares at all: combine is two integer compares, which is what lets a GPU
// fold float argmin at the speed of integer argmin. finish() turns the key back into
// the value (any NaN as the canonical quiet NaN).
template <class T>
struct arg_key {
    bits_t<T> key;
    std::size_t index;
};

template <class T, bool Max>
    requires is_float_element_v<T>
struct arg_extremum_reducer<T, Max> {
    using keys = extremum_reducer<T, Max>;
    using K = typename keys::K;
    using value_type = T;
    using accumulator_type = arg_key<T>;
    using result_type = arg_result<T>;
    static constexpr combine_kind kind = combine_kind::custom;
    static constexpr bool commutative = true;  // ties go to the lower index, whatever the operand order
    PREDUCE_HD static constexpr accumulator_type identity() noexcept { return {keys::identity(), no_index}; }
    PREDUCE_HD constexpr accumulator_type lift(T x, std::size_t i) const noexcept { return {keys{}.lift(x, i), i}; }
    PREDUCE_HD static constexpr accumulator_type combine(accumulator_type a, accumulator_type b) noexcept {
        const bool b_better = Max ? a.key < b.key : b.key < a.key;
        return b_better || (a.key == b.key && b.index < a.index) ? b : a;
    }
    PREDUCE_HD constexpr result_type finish(accumulator_type a) const noexcept { return {keys{}.finish(a.key), a.index}; }
    // Any NaN value is the winning key.
    PREDUCE_HD constexpr accumulator_type resume(result_type r, std::uint64_t offset) const noexcept {
        return lift(r.value, r.index == no_index ? no_index : static_cast<std::size_t>(r.index + offset));
    }
};
} // namespace detail

template <class T>
struct min_reducer : detail::extremum_reducer<T, false> {
    static constexpr const char* name = "min";
    static constexpr const char* help = "smallest element; NaN propagates, -0.0 is below +0.0";
};
template <class T>
struct max_reducer : detail::extremum_reducer<T, true> {
    static constexpr const char* name = "max";
    static constexpr const char* help = "largest element; NaN propagates, +0.0 is above -0.0";
};
template <class T>
struct argmin_reducer : detail::arg_extremum_reducer<T, false> {
    static constexpr bool compares = true;
    static constexpr const char* name = "argmin";
    static constexpr const char* help = "smallest element and its index (the first one on ties; a NaN wins)";
};
template <class T>
struct argmax_reducer : detail::arg_extremum_reducer<T, true> {
    static constexpr bool compares = true;
    static constexpr const char* name = "argmax";
    static constexpr const char* help = "largest element and its index (the first one on ties; a NaN wins)";
};

namespace detail {
// The extremum of the elements that are not NaN (NumPy's nanmin/nanmax): the keys of
// extremum_reducer, with NaN mapped to the key that loses to every number, which is also
// the identity; finish() turns that key into NaN. An input with no number (empty, or all
// NaN) gives NaN. Integers have no NaN: there it is min/max.
template <class T, bool Max>
struct nan_ignoring_extremum : extremum_reducer<T, Max> {};

template <class T, bool Max>
    requires is_float_element_v<T>
struct nan_ignoring_extremum<T, Max> {
    using keys = extremum_reducer<T, Max>;
    using K = typename keys::K;
    using value_type = T;
    using accumulator_type = K;
    using result_type = T;
    static constexpr combine_kind kind = keys::kind;
    static constexpr bool commutative = true;
    // Below key(-inf) for max (no finite or infinite value has key 0), above key(+inf) for min.
    static constexpr K none = static_cast<K>(Max ? K(0) : ~K(0));
    PREDUCE_HD static constexpr K identity() noexcept { return none; }
    PREDUCE_HD constexpr K lift(T x, std::size_t) const noexcept { return is_nan(x) ? none : keys::key(x); }
    PREDUCE_HD static constexpr K combine(K a, K b) noexcept { return keys::combine(a, b); }
    PREDUCE_HD constexpr T finish(K k) const noexcept { return k == none ? quiet_nan<T>() : keys::value(k); }
    PREDUCE_HD constexpr K resume(T r, std::uint64_t) const noexcept { return lift(r, 0); }
};
} // namespace detail

template <class T>
struct nanmax_reducer : detail::nan_ignoring_extremum<T, true> {
    using same_bits_as = std::conditional_t<detail::is_float_element_v<T>, nanmax_reducer, max_reducer<T>>;
    static constexpr const char* name = "nanmax";
    static constexpr const char* help = "largest element that is not NaN (NumPy's nanmax); NaN when there is none";
};

enum class predicate_kind { equal, not_equal, less, less_equal, greater, greater_equal, in_range, is_nan };

// A predicate already converted to the element type (see ops.hpp for how it is built).
// Elements and thresholds compare by their values (16-bit floats widened exactly).
template <class T>
struct predicate {
    predicate_kind kind = predicate_kind::equal;
    T a{};  // threshold, or lower bound of in_range (inclusive)
    T b{};  // upper bound of in_range (exclusive)
    PREDUCE_HD constexpr bool operator()(T element) const noexcept {
        const auto x = detail::widen(element), lo = detail::widen(a);
        switch (kind) {
        case predicate_kind::equal: return x == lo;
        case predicate_kind::not_equal: return x != lo;
        case predicate_kind::less: return x < lo;
        case predicate_kind::less_equal: return x <= lo;
        case predicate_kind::greater: return x > lo;
        case predicate_kind::greater_equal: return x >= lo;
        case predicate_kind::in_range: return lo <= x && x < detail::widen(b);
        case predicate_kind::is_nan: return detail::is_nan(element);
        }
        return false;
    }
};

template <class T>
struct count_reducer {
    using value_type = T;
    using accumulator_type = std::uint64_t;
    using result_type = std::uint64_t;
    static constexpr combine_kind kind = combine_kind::plus;
    static constexpr bool commutative = true;
    static constexpr const char* name = "count_if";
    static constexpr const char* help = "elements that satisfy --pred, as uint64";
    predicate<T> pred;
    PREDUCE_HD static constexpr accumulator_type identity() noexcept { return 0; }
    PREDUCE_HD constexpr accumulator_type lift(T x, std::size_t) const noexcept { return pred(x) ? 1u : 0u; }
    PREDUCE_HD static constexpr accumulator_type combine(accumulator_type a, accumulator_type b) noexcept { return a + b; }
    PREDUCE_HD constexpr result_type finish(accumulator_type a) const noexcept { return a; }
    PREDUCE_HD constexpr accumulator_type resume(result_type r, std::uint64_t) const noexcept { return r; }
};

} // namespace preduce
