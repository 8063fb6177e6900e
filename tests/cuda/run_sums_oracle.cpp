#include "run_sums_oracle.hpp"

#include <cmath>
#include <limits>
#include <span>

#include "oracle/oracle.hpp"

namespace preduce::test {

template <class T>
std::size_t sums_outside_bound(const std::vector<T>& values, const std::vector<std::size_t>& starts, const T* got) {
    const long double u = std::numeric_limits<T>::epsilon() / 2;
    std::size_t bad = 0;
    for (std::size_t r = 0; r + 1 < starts.size(); ++r) {
        const auto ref = oracle::sum_with_bound(std::span<const T>(values.data() + starts[r], starts[r + 1] - starts[r]), u);
        if (!(std::fabs(static_cast<long double>(got[r]) - ref.exact) <= ref.bound)) ++bad;
    }
    return bad;
}

template std::size_t sums_outside_bound<float>(const std::vector<float>&, const std::vector<std::size_t>&, const float*);
template std::size_t sums_outside_bound<double>(const std::vector<double>&, const std::vector<std::size_t>&,
                                                const double*);

} // namespace preduce::test
