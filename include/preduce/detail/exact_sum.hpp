#pragma once
// Exact summation for references: Shewchuk's adaptive expansion (the algorithm behind
// Python's math.fsum). The partials hold the sum with no rounding at all; value() rounds
// it once, to the nearest double. Every int32/uint32/float/double element is exact in
// double; 64-bit integers beyond 2^53 are not and are not summed here. Used by the tests
// and the CLI to measure the rounding of the backends, never inside a backend.
#include <cmath>
#include <limits>
#include <vector>

namespace preduce::detail {

class exact_sum {
public:
    void add(double x) {
        if (!std::isfinite(x)) {
            special_ += x;  // inf and NaN follow IEEE rules; finite partials are then moot
            return;
        }
        std::size_t kept = 0;
        for (double y : partials_) {
            if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
            const double hi = x + y;
            const double lo = y - (hi - x);  // exact error of hi (Fast2Sum, |x| >= |y|)
            if (lo != 0.0) partials_[kept++] = lo;
            x = hi;
        }
        partials_.resize(kept);
        if (std::isinf(x)) {
            overflow_ += x;  // intermediate overflow: the finite sum exceeds double's range
            return;
        }
        partials_.push_back(x);
    }

    // The exact sum rounded to nearest (ties to even), or inf/NaN by IEEE rules.
    double value() const {
        if (special_ != 0.0 || std::isnan(special_)) return special_ + overflow_;
        if (overflow_ != 0.0) return overflow_;
        if (partials_.empty()) return 0.0;
        // Sum from the largest partial down, then correct the last rounding (fsum's trick).
        std::size_t i = partials_.size();
        double hi = partials_[--i], lo = 0.0;
        while (i > 0) {
            const double x = hi, y = partials_[--i];
            hi = x + y;
            lo = y - (hi - x);
            if (lo != 0.0) break;
        }
        if (i > 0 && ((lo < 0.0 && partials_[i - 1] < 0.0) || (lo > 0.0 && partials_[i - 1] > 0.0))) {
            const double y = lo * 2.0, x = hi + y;
            if (y == x - hi) hi = x;
        }
        return hi;
    }

private:
    std::vector<double> partials_;  // non-overlapping, increasing magnitude
    double special_ = 0.0;
    double overflow_ = 0.0;
};

} // namespace preduce::detail
