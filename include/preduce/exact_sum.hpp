#pragma once
// An exact sum, to measure a result's rounding: Shewchuk's adaptive expansion (the algorithm
// behind Python's math.fsum), carried in long double. The partials hold the sum with no rounding
// at all; value() rounds it once, to the nearest long double. Every int32/uint32/float/
// double element is exact in long double; x87's 15-bit exponent also means a sum of
// doubles cannot overflow on the way (fsum in double raises "intermediate overflow").
// The CLI's error column, bench/accuracy.cpp and the tests' oracles measure the backends'
// rounding with it; no backend uses it, so a comparison with it checks a backend against
// an independent computation.
#include <cmath>
#include <limits>
#include <vector>

namespace preduce {

class exact_sum {
public:
    void add(long double x) {
        if (!std::isfinite(x)) {
            special_ += x;  // inf and NaN follow IEEE rules; the finite partials are then moot
            return;
        }
        std::size_t kept = 0;
        for (long double y : partials_) {
            if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
            const long double hi = x + y;
            const long double lo = y - (hi - x);  // exact error of hi (Fast2Sum, |x| >= |y|)
            if (lo != 0.0L) partials_[kept++] = lo;
            x = hi;
        }
        partials_.resize(kept);
        partials_.push_back(x);
    }

    // The exact sum rounded to the nearest long double, or inf/NaN by IEEE rules.
    long double value() const {
        if (special_ != 0.0L || std::isnan(special_)) return special_;
        if (partials_.empty()) return 0.0L;
        // Sum from the largest partial down, then correct a half-way rounding (fsum's trick).
        std::size_t i = partials_.size();
        long double hi = partials_[--i], lo = 0.0L;
        while (i > 0) {
            const long double x = hi, y = partials_[--i];
            hi = x + y;
            lo = y - (hi - x);
            if (lo != 0.0L) break;
        }
        if (i > 0 && ((lo < 0.0L && partials_[i - 1] < 0.0L) || (lo > 0.0L && partials_[i - 1] > 0.0L))) {
            const long double y = lo * 2.0L, x = hi + y;
            if (y == x - hi) hi = x;
        }
        return hi;
    }

private:
    static_assert(std::numeric_limits<long double>::max_exponent > std::numeric_limits<double>::max_exponent,
                  "exact_sum needs a long double with a wider exponent range than double (x87 or quad)");
    std::vector<long double> partials_;  // non-overlapping, increasing magnitude
    long double special_ = 0.0L;
};

} // namespace preduce
