// preduce_accuracy: the error of fast, deterministic and compensated float sums against
// the exact sum (Shewchuk, in long double) on inputs of chosen condition number
// sum|x| / |sum x|, for every backend this build can run. Prints a Markdown table.
//
//   preduce_accuracy [n]        (default n = 2^20)
//
// Input of condition ~10^k: pairs +y, -y of magnitude ~10^k / n... shuffled, plus small
// values whose sum is the exact result, so sum|x| / |sum| ~ 10^k.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "preduce/exact_sum.hpp"
#include <preduce/preduce.hpp>

namespace {

template <class T>
std::vector<T> conditioned(std::size_t n, int decimal_exponent, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> big(1.0, 2.0), small(-1.0, 1.0);
    std::vector<T> v;
    v.reserve(n);
    const std::size_t smalls = 64;
    const double scale = std::pow(10.0, decimal_exponent) * static_cast<double>(smalls) / static_cast<double>(n);
    while (v.size() + 2 + smalls <= n) {
        const T y = static_cast<T>(big(rng) * scale);
        v.push_back(y);
        v.push_back(-y);
    }
    while (v.size() < n) v.push_back(static_cast<T>(small(rng)));
    std::shuffle(v.begin(), v.end(), rng);
    return v;
}

template <class T>
void table(std::size_t n) {
    std::printf("\n%s, n = %zu: |computed - exact| / |exact| (u = %.1e)\n\n", sizeof(T) == 4 ? "float32" : "float64", n,
                static_cast<double>(std::numeric_limits<T>::epsilon() / 2));
    std::printf("| condition | backend | fast | deterministic | compensated |\n| --- | --- | --- | --- | --- |\n");
    for (int k : {0, 4, 8, 12, 16}) {
        const auto v = k == 0 ? std::vector<T>() : conditioned<T>(n, k, 1234 + static_cast<std::uint64_t>(k));
        std::vector<T> data = v;
        if (k == 0) {  // condition 1: positive values
            std::mt19937_64 rng(99);
            std::uniform_real_distribution<double> u(0.5, 1.0);
            data.resize(n);
            for (auto& x : data) x = static_cast<T>(u(rng));
        }
        preduce::exact_sum exact;
        long double abs_sum = 0;
        for (T x : data) {
            exact.add(static_cast<long double>(x));
            abs_sum += std::fabs(static_cast<long double>(x));
        }
        const long double s = exact.value();
        for (preduce::backend b : preduce::available_backends()) {
            if (!preduce::is_usable(b)) continue;
            std::printf("| %.1e | %s |", static_cast<double>(abs_sum / std::fabs(s)), std::string(preduce::name(b)).c_str());
            for (auto p : {preduce::precision::fast, preduce::precision::deterministic, preduce::precision::compensated}) {
                const T got = preduce::reduce(b, data, preduce::sum, {.precision = p});
                std::printf(" %.2e |", static_cast<double>(std::fabs(static_cast<long double>(got) - s) / std::fabs(s)));
            }
            std::printf("\n");
        }
    }
}

} // namespace

int main(int argc, char** argv) {
    const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (std::size_t{1} << 20);
    table<float>(n);
    table<double>(n);
    return 0;
}
