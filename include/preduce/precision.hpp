#pragma once
// How floating-point sums are evaluated (options::precision).
//
//   fast           each backend's own order: SIMD lanes, threads, GPU grid; results differ
//                  between backends, thread counts and grids by rounding only.
//   deterministic  one fixed evaluation order, defined on element positions alone
//                  (detail/algorithm/fixed_order/order.hpp), so every backend, thread count and GPU grid
//                  returns the same bits for the same input.
//   compensated    the same fixed order with a compensated (TwoSum) accumulator in every
//                  lane and every combine: deterministic too, and an error of about
//                  2u|sum| + n u^2 sum|x| that does not grow with n until n ~ 1/u.
//
// They apply to sums of floating-point values: sum, wide_sum, sumsq, asum, dot and
// transform(f, sum) with a floating result. Integer sums, min, max, argmin, argmax and
// count_if are exact and already identical everywhere; they ignore the setting. Other
// operations with floating accumulators (moments, fused, user operations) refuse
// deterministic and compensated with invalid_argument.
namespace preduce {

enum class precision { fast, deterministic, compensated };

inline constexpr const char* name(precision p) noexcept {
    switch (p) {
    case precision::fast: return "fast";
    case precision::deterministic: return "deterministic";
    case precision::compensated: return "compensated";
    }
    return "unknown";
}

} // namespace preduce
