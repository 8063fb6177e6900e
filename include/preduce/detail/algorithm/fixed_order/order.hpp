#pragma once
// The one evaluation order of precision::deterministic and precision::compensated. It is
// defined on element positions alone, so any decomposition that computes the same block
// values and then the same tree gets the same bits:
//
//  1. Blocks: elements [b*4096, (b+1)*4096) form block b (the last one may be short).
//  2. Lanes: inside a block, lane j (0..31) adds lift(x[i]) for i = b*4096 + j, +32, +64,
//     ... in increasing i, starting from the identity (-0.0: adding it changes nothing).
//     A GPU warp does exactly this with lane j of the warp; a CPU core with 32 SIMD lanes.
//  3. Lane tree: for w = 16, 8, 4, 2, 1: lane[j] = lane[j] + lane[j + w] (j < w), i.e. a
//     warp's shuffle-down tree. lane[0] is the block value.
//  4. Block tree: with m block values v[0..m): while m > 1, v[i] = v[2i] + v[2i+1] for
//     i < m/2, an odd last value moves to v[m/2], m = ceil(m/2). v[0] is the sum.
//
// compensated runs the same order on pairs (s, c): an element is added with TwoSum
// (s' = s + x exactly split into s' and the rounding error e, c' = c + e) for double data,
// and into a double lane for float data (wide_t below); two pairs merge as
// (TwoSum(s1, s2), c1 + c2 + e); the result is s + c, rounded once.
//
// Every + here is one IEEE addition in the accumulator's precision, whatever flags the
// code that instantiates this header was compiled with:
//  - no FMA contraction: GCC's GNU modes (-std=gnu++20, CMake's default) fuse a product
//    into a following addition wherever -march allows (-ffp-contract=fast), and so does
//    clang with -ffp-contract=fast. The only products are inside lift() (sumsq, dot, user
//    transforms); lifted values reach the lanes through lift_row(), which rounds them in
//    memory first. Device code adds with __fadd_rn / __dadd_rn, which are never fused.
//  - no reassociation: -ffast-math is refused below.
//  - no flushing of denormals: never enabled by preduce (-ffast-math or nvcc
//    --use_fast_math would).
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "preduce/detail/core/hd.hpp"
#include "preduce/detail/core/numeric.hpp"
#include "preduce/errors.hpp"
#include "preduce/fused.hpp"
#include "preduce/precision.hpp"
#include "preduce/reducers.hpp"
#include "preduce/source.hpp"
#include "preduce/transforms.hpp"

#if defined(__FAST_MATH__)
#error "preduce: -ffast-math reorders and contracts floating-point sums; precision::deterministic and compensated need IEEE arithmetic"
#endif

namespace preduce::detail::fixed_order {

inline constexpr std::size_t block = 4096;  // elements per block
inline constexpr std::size_t lanes = 32;    // lanes per block (a warp)
static_assert(block % lanes == 0);

// What a precision setting means for reducer R.
enum class support { exact, float_sum, unsupported };

template <class A>
inline constexpr bool is_arg_accumulator_v = false;
template <class T>
inline constexpr bool is_arg_accumulator_v<arg_result<T>> = true;
template <class T>
inline constexpr bool is_arg_accumulator_v<detail::arg_key<T>> = true;

template <class R>
constexpr support support_of();

template <class R>
inline constexpr bool all_parts_exact_v = false;
template <class... R>
inline constexpr bool all_parts_exact_v<fused_reducer<R...>> = ((support_of<R>() == support::exact) && ...);

template <class R>
constexpr support support_of() {
    using A = typename R::accumulator_type;
    if constexpr (std::is_integral_v<A> || is_arg_accumulator_v<A> || all_parts_exact_v<R>) {
        return support::exact;
    } else if constexpr (std::is_floating_point_v<A> && requires { R::kind; }) {
        return R::kind == combine_kind::plus ? support::float_sum : support::unsupported;
    } else {
        return support::unsupported;  // a reducer that does not say what its combine is
    }
}

template <class R>
constexpr const char* name_of() {
    if constexpr (requires { R::name; }) return R::name;
    else return "this operation";
}

// Throws for a setting the reducer cannot honour; true when the fixed order must run.
template <class R>
bool wanted(precision p, const char* reducer_name) {
    if (p == precision::fast) return false;
    constexpr support s = support_of<R>();
    if constexpr (s == support::unsupported) {
        throw invalid_argument(std::string("preduce: precision::") + name(p) + " covers sums of floating-point values "
                               "(sum, wide_sum, sumsq, asum, dot, transform(f, sum)) and the exact operations; '" +
                               reducer_name + "' is neither");
    }
    return s == support::float_sum;
}

template <class R>
inline constexpr bool takes_fixed_order_v = support_of<R>() == support::float_sum;

// For reducers outside the fixed order: refuse deterministic/compensated unless exact.
template <class R>
void check_precision(precision p) {
    if constexpr (!takes_fixed_order_v<R>) (void)wanted<R>(p, name_of<R>());
}


// A compensated partial sum: s + c, with c the accumulated rounding errors of s.
template <class A>
struct pair_sum {
    A s;
    A c;
};

// One IEEE addition / subtraction, rounded to nearest. Device code spells it with the
// intrinsic, which nvcc never contracts into an FMA (its default --fmad=true would fuse
// a product from lift() into a plain +).
template <class A>
PREDUCE_HD inline A plus(A a, A b) noexcept {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<A, float>) return __fadd_rn(a, b);
    else if constexpr (std::is_same_v<A, double>) return __dadd_rn(a, b);
    else return a + b;
#else
    return a + b;
#endif
}

template <class A>
PREDUCE_HD inline A minus(A a, A b) noexcept {
#if defined(__CUDA_ARCH__)
    if constexpr (std::is_same_v<A, float>) return __fsub_rn(a, b);
    else if constexpr (std::is_same_v<A, double>) return __dsub_rn(a, b);
    else return a - b;
#else
    return a - b;
#endif
}

// TwoSum (Knuth): s + e == a + b exactly, s = fl(a + b). Six additions, no branch.
template <class A>
PREDUCE_HD inline pair_sum<A> two_sum(A a, A b) noexcept {
    const A s = plus(a, b);
    const A bp = minus(s, a);
    const A e = plus(minus(a, minus(s, bp)), minus(b, bp));
    return {s, e};
}

// What a compensated lane holds. Float data: a double, to which each element is added
// exactly converted (one rounding in double per element, at most 128 per lane and block, so
// the error inside a block is below 2^-46 sum|x| of the block whatever n is); blocks and lanes
// then merge with TwoSum pairs in double. That is both more accurate than float TwoSum and
// half its instructions. Double data: TwoSum in double for every element.
template <precision P, class A>
using wide_t = std::conditional_t<P == precision::compensated && std::is_same_v<A, float>, double, A>;

template <precision P, class A>
using value_t = std::conditional_t<P == precision::compensated, pair_sum<wide_t<P, A>>, A>;

template <precision P, class A>
PREDUCE_HD inline value_t<P, A> zero(A identity) noexcept {
    using W = wide_t<P, A>;
    if constexpr (P == precision::compensated) return {W(identity), W(0)};
    else return identity;
}

// One element into a lane, in the lane's type (a float for a compensated float lane converts
// to double on the way in, exactly; a kernel may convert it earlier, where it has the time).
template <precision P, class A>
PREDUCE_HD inline void add(value_t<P, A>& acc, wide_t<P, A> x) noexcept {
    using W = wide_t<P, A>;
    if constexpr (P == precision::compensated && !std::is_same_v<W, A>) {
        acc.s = plus(acc.s, x);
    } else if constexpr (P == precision::compensated) {
        const pair_sum<A> t = two_sum(acc.s, x);
        acc.s = t.s;
        acc.c = plus(acc.c, t.c);
    } else {
        acc = plus(acc, x);
    }
}

// Two partial sums, left then right (lane tree and block tree).
template <precision P, class A>
PREDUCE_HD inline value_t<P, A> merge(const value_t<P, A>& a, const value_t<P, A>& b) noexcept {
    using W = wide_t<P, A>;
    if constexpr (P == precision::compensated) {
        const pair_sum<W> t = two_sum(a.s, b.s);
        return {t.s, plus(plus(a.c, b.c), t.c)};
    } else {
        return plus(a, b);
    }
}

// The sum a partial sum stands for, rounded once to A. Compensated: s alone when it is
// not finite (an infinity or NaN in the data, or overflow: the error terms are then NaN)
// or when there is no error to add (keeps the sign of a zero sum: -0.0 + +0.0 is +0.0).
// A NaN sum is the canonical quiet NaN: which NaN an addition returns depends on the order
// of its operands (x86 returns the first one's), which compilers swap freely because the
// values of x + y and y + x are equal, so the NaN's sign and payload are not in the order.
template <precision P, class A>
PREDUCE_HD inline A result(const value_t<P, A>& v) noexcept {
    using W = wide_t<P, A>;
    A out;
    if constexpr (P == precision::compensated)
        out = static_cast<A>((minus(v.s, v.s) != W(0) || v.c == W(0)) ? v.s : plus(v.s, v.c));
    else out = v;
    return is_nan(out) ? quiet_nan<A>() : out;
}

// Lifts whose result is exact (a conversion, an absolute value: the reducer says
// lift_is_exact): nothing in them can be fused with the addition that follows.
template <class R>
inline constexpr bool exact_lift_v = [] {
    if constexpr (requires { R::lift_is_exact; }) return static_cast<bool>(R::lift_is_exact);
    else return false;
}();

// No FMA contraction where a lifted value meets a lane addition, whatever the flags of the
// translation unit that instantiates the fixed order (contraction happens after inlining,
// in whatever function the product and the addition end up in, under that function's
// flags):
//  - GCC: PREDUCE_NO_CONTRACT marks those functions -ffp-contract=off (GCC never inlines
//    them into a caller with other options, and what they inline follows their own).
//  - Clang cannot override -ffp-contract=fast per function: launder_row() passes each row
//    of lifted values through memory that an empty asm statement is told to read, which
//    forces every product to be rounded before it is added. For lifts that cannot multiply
//    (exact_lift_v) it does nothing; the loops on either side still vectorise.
//  - Device code needs neither: plus() above is never fused.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDA_ARCH__)
#define PREDUCE_NO_CONTRACT __attribute__((optimize("fp-contract=off")))
#else
#define PREDUCE_NO_CONTRACT
#endif

#if defined(__clang__) && !defined(__CUDA_ARCH__)
inline constexpr bool launders_rows = true;
#else
inline constexpr bool launders_rows = false;
#endif

// Whether lifted values of R go through a laundered row on the way to the lanes; where not,
// the folds add each lifted value straight into its lane (one loop, the fastest form).
template <class R>
inline constexpr bool laundered_v = launders_rows && !exact_lift_v<R>;

template <class R, class A>
PREDUCE_HD inline void launder_row([[maybe_unused]] A* row) noexcept {
#if defined(__clang__) && !defined(__CUDA_ARCH__)
    if constexpr (laundered_v<R>) __asm__ volatile("" : : "r"(row) : "memory");
#endif
}

// Step 1-3: the value of block b of src[0, n), one lane at a time (the reference every
// vectorised or parallel form must equal; also the short last block's path).
template <precision P, class R, class S = source_t<R>>
PREDUCE_HD PREDUCE_NO_CONTRACT value_t<P, typename R::accumulator_type> block_value(const R& r, S src, std::size_t n,
                                                                                    std::size_t b) {
    using A = typename R::accumulator_type;
    using V = value_t<P, A>;
    V lane[lanes];
    [[maybe_unused]] A row[lanes];
    for (std::size_t j = 0; j < lanes; ++j) lane[j] = zero<P, A>(R::identity());
    const std::size_t first = b * block;
    const std::size_t last = n - first < block ? n : first + block;
    std::size_t i = first;
    if constexpr (laundered_v<R>) {
        for (; i + lanes <= last; i += lanes) {
            for (std::size_t j = 0; j < lanes; ++j) row[j] = r.lift(src[i + j], i + j);
            launder_row<R>(row);
            for (std::size_t j = 0; j < lanes; ++j) add<P, A>(lane[j], row[j]);
        }
        const std::size_t count = last - i;  // the partial last row
        for (std::size_t j = 0; j < count; ++j) row[j] = r.lift(src[i + j], i + j);
        launder_row<R>(row);
        for (std::size_t j = 0; j < count; ++j) add<P, A>(lane[j], row[j]);
    } else {
        for (; i + lanes <= last; i += lanes)
            for (std::size_t j = 0; j < lanes; ++j) add<P, A>(lane[j], r.lift(src[i + j], i + j));
        for (std::size_t j = 0; i + j < last; ++j) add<P, A>(lane[j], r.lift(src[i + j], i + j));
    }
    for (std::size_t w = lanes / 2; w > 0; w /= 2)
        for (std::size_t j = 0; j < w; ++j) lane[j] = merge<P, A>(lane[j], lane[j + w]);
    return lane[0];
}

// block_value of the one block of a segment of len <= 32 elements (one row), for a thread
// that has the segment to itself: lane j < len holds element j alone, the lanes past len hold
// the identity and stay so, and a lane-tree step that would add such a lane is skipped. For
// deterministic the bits are block_value's (x + -0.0 is x, the identity pair's own sums
// likewise); for compensated only the sign of a zero error term can differ, which result()
// does not read. So this is for a whole segment's result, not for a block inside a tree.
template <precision P, class R, class S = source_t<R>>
PREDUCE_HD PREDUCE_NO_CONTRACT value_t<P, typename R::accumulator_type> short_value(const R& r, S src,
                                                                                    std::size_t len) {
    using A = typename R::accumulator_type;
    using V = value_t<P, A>;
    V lane[lanes];
    A row[lanes];
    for (std::size_t j = 0; j < lanes; ++j) row[j] = j < len ? r.lift(src[j], j) : R::identity();
    launder_row<R>(row);
    for (std::size_t j = 0; j < lanes; ++j) {
        lane[j] = zero<P, A>(R::identity());
        if (j < len) add<P, A>(lane[j], row[j]);
    }
    for (std::size_t w = lanes / 2; w > 0; w /= 2)
        for (std::size_t j = 0; j < w; ++j)
            if (j + w < len) lane[j] = merge<P, A>(lane[j], lane[j + w]);
    return lane[0];
}

PREDUCE_HD constexpr std::size_t block_count(std::size_t n) noexcept { return n / block + (n % block != 0); }

// Step 4, in place. Returns the sum of v (the identity's pair for an empty v).
template <precision P, class A>
PREDUCE_HD value_t<P, A> block_tree(value_t<P, A>* v, std::size_t m, A identity) {
    if (m == 0) return zero<P, A>(identity);
    while (m > 1) {
        const std::size_t half = m / 2;
        for (std::size_t i = 0; i < half; ++i) v[i] = merge<P, A>(v[2 * i], v[2 * i + 1]);
        if (m % 2 != 0) v[half] = v[m - 1];
        m = half + m % 2;
    }
    return v[0];
}

// Nodes at level L of the block tree over m blocks: ceil(m / 2^L).
PREDUCE_HD constexpr std::uint64_t level_count(std::uint64_t level, std::uint64_t m) noexcept {
    return level >= 62 ? (m > 0 ? 1 : 0) : (m >> level) + ((m & ((std::uint64_t{1} << level) - 1)) != 0);
}

// Step 4 over block values that arrive one at a time, in order, with their number m known
// (a GPU warp folding one segment block after block): the tree's nodes as a stack, a node
// merged with its left sibling as soon as it arrives, an odd last node moved up. The same
// nodes, merged in the same pairs, as block_tree.
template <precision P, class A>
struct streaming_tree {
    static constexpr int depth = 64;  // levels of a tree over < 2^64 blocks
    value_t<P, A> node[depth];
    std::uint64_t m;
    std::uint64_t arrived = 0;
    int top = 0;

    PREDUCE_HD explicit streaming_tree(std::uint64_t blocks) : m(blocks) {}
    PREDUCE_HD void push(value_t<P, A> x) {
        std::uint64_t level = 0, index = arrived++;
        while (level_count(level, m) > 1) {
            if (index % 2 == 0) {
                if (index + 1 < level_count(level, m)) break;  // its right sibling comes later
            } else {
                x = merge<P, A>(node[--top], x);  // the left sibling is the node on top
            }
            ++level;
            index /= 2;
        }
        node[top++] = x;
    }
    // The sum of all m values (the identity's pair for m = 0).
    PREDUCE_HD value_t<P, A> root(A identity) const { return m == 0 ? zero<P, A>(identity) : node[0]; }
};

// Step 4 and the final rounding over the block values v (overwritten): the result.
template <precision P, class R>
typename R::result_type finish_blocks(const R& r, std::vector<value_t<P, typename R::accumulator_type>>& v) {
    using A = typename R::accumulator_type;
    return r.finish(result<P, A>(block_tree<P, A>(v.data(), v.size(), R::identity())));
}

// The whole order on one thread, one lane at a time: the plain reference the tests
// compare every backend with.
template <precision P, class R>
typename R::result_type reduce_serial(const R& r, source_t<R> src, std::size_t n) {
    std::vector<value_t<P, typename R::accumulator_type>> v(block_count(n));
    for (std::size_t b = 0; b < v.size(); ++b) v[b] = block_value<P>(r, src, n, b);
    return finish_blocks<P>(r, v);
}

} // namespace preduce::detail::fixed_order
