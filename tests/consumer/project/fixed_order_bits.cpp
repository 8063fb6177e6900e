// The fixed order's bits in a user's own build. This file is compiled the way a user's
// code often is (GNU dialect, CMake's default; -O3 -march=native, which lets GCC fuse a
// product into the addition that follows it), yet the header-only templates, instantiated
// here, must return the bits of the compiled front end, which preduce built itself.
#include <preduce/preduce.hpp>
#include <preduce/seq/reduce.hpp>
#if defined(CONSUMER_HAS_OPENMP)
#include <preduce/openmp/reduce.hpp>
#endif

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

int failures = 0;

template <class V>
std::uint64_t bits(V v) {
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof v);
    return b;
}

template <class V>
void expect_same(const char* what, V header_only, V compiled) {
    if (bits(header_only) == bits(compiled)) return;
    ++failures;
    std::printf("FAILED %s: header-only %#llx, compiled %#llx\n", what, static_cast<unsigned long long>(bits(header_only)),
                static_cast<unsigned long long>(bits(compiled)));
}

template <class T>
void check(std::size_t n) {
    std::vector<T> x(n), y(n);
    std::uint64_t s = 0x1234567;
    for (std::size_t i = 0; i < n; ++i) {  // values with full mantissas: products round
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        x[i] = static_cast<T>(static_cast<double>(s >> 11) * 0x1p-53 - 0.5);
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        y[i] = static_cast<T>(static_cast<double>(s >> 11) * 0x1p-53 - 0.5);
    }
    using preduce::backend;
    for (preduce::precision p : {preduce::precision::deterministic, preduce::precision::compensated}) {
        const preduce::options o{.precision = p};
        const T sum = preduce::reduce(backend::seq, x.data(), n, preduce::sum, o);
        const T sumsq = preduce::reduce(backend::seq, x.data(), n, preduce::sumsq, o);
        const T dot = preduce::reduce(backend::seq, x.data(), y.data(), n, preduce::dot, o);
        expect_same("seq sum", preduce::seq::reduce(x.data(), n, preduce::sum, o), sum);
        expect_same("seq sumsq", preduce::seq::reduce(x.data(), n, preduce::sumsq, o), sumsq);
        expect_same("seq dot", preduce::seq::reduce(x.data(), y.data(), n, preduce::dot, o), dot);
#if defined(CONSUMER_HAS_OPENMP)
        expect_same("openmp sum", preduce::openmp::reduce(x.data(), n, preduce::sum, o), sum);
        expect_same("openmp sumsq", preduce::openmp::reduce(x.data(), n, preduce::sumsq, o), sumsq);
        expect_same("openmp dot", preduce::openmp::reduce(x.data(), y.data(), n, preduce::dot, o), dot);
#endif
    }
}

} // namespace

int main() {
    for (std::size_t n : {std::size_t{1000}, std::size_t{1} << 20}) {
        check<float>(n);
        check<double>(n);
    }
    std::printf("fixed-order bits of the header-only templates: %d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
