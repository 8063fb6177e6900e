#include "inputs.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <limits>
#include <new>
#include <type_traits>

#include "config.hpp"
#include "preduce/detail/core/elements.hpp"
#include "preduce/detail/core/numeric.hpp"

namespace preduce_bench {

namespace {

// splitmix64: tiny, fast, and every block can start from its own seed, so the data is
// the same whatever the number of threads that generate it.
struct splitmix64 {
    std::uint64_t s;
    std::uint64_t operator()() noexcept {
        std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
};

template <class T>
T nonzero_value(splitmix64& g) noexcept {
    for (;;) {
        if constexpr (preduce::detail::is_half_v<T>) {
            const T v = preduce::detail::round_from_float<T>(nonzero_value<float>(g));
            if (preduce::to_float(v) != 0.0f) return v;
        } else {
            const std::uint64_t r = g();
            T v;
            if constexpr (std::is_floating_point_v<T>) {
                constexpr int bits = std::numeric_limits<T>::digits;  // 24 or 53: exact in T
                const auto m = static_cast<std::int64_t>(r >> (64 - bits)) - (std::int64_t{1} << (bits - 1));
                v = static_cast<T>(m) / static_cast<T>(std::int64_t{1} << (bits - 1));
            } else if constexpr (std::is_signed_v<T>) {
                v = static_cast<T>(static_cast<std::int64_t>(r >> 33) - (std::int64_t{1} << 30));
            } else {
                v = static_cast<T>(r >> 33);
            }
            if (v != T(0)) return v;
        }
    }
}

constexpr std::uint64_t seed = 0x5eed'0000'2026'0001ull;
constexpr std::size_t block = std::size_t{1} << 16;

template <class T>
std::span<const T> make_buffer() {
    const config& c = current();
    std::size_t n = c.buffer_bytes / sizeof(T);
    if (n < c.max_n()) n = c.max_n();
    const std::size_t align = std::size_t{2} << 20;  // huge-page aligned
    const std::size_t bytes = (n * sizeof(T) + align - 1) / align * align;
    T* p = static_cast<T*>(std::aligned_alloc(align, bytes));
    if (p == nullptr) throw std::bad_alloc();
    if (c.hugepages) (void)madvise(p, bytes, MADV_HUGEPAGE);
    const auto blocks = static_cast<std::int64_t>((n + block - 1) / block);
    const std::uint64_t type_salt = static_cast<std::uint64_t>(sizeof(T)) * 131 +
                                    (std::is_floating_point_v<T> ? 7 : 0) + (std::is_signed_v<T> ? 3 : 0);
#pragma omp parallel for schedule(static)
    for (std::int64_t b = 0; b < blocks; ++b) {
        splitmix64 g{seed ^ (type_salt << 48) ^ static_cast<std::uint64_t>(b) * 0x2545f4914f6cdd1dull};
        const std::size_t begin = static_cast<std::size_t>(b) * block;
        const std::size_t end = begin + block < n ? begin + block : n;
        for (std::size_t i = begin; i < end; ++i) p[i] = nonzero_value<T>(g);
    }
    return {p, n};
}

} // namespace

template <class T>
std::span<const T> input_buffer() {
    static const std::span<const T> buf = make_buffer<T>();
    return buf;
}

template <class T>
windows<T>::windows(std::size_t n) : n_(n) {
    const auto buf = input_buffer<T>();
    base_ = buf.data();
    slots_ = current().in_cache ? 1 : buf.size() / n;
    if (slots_ == 0) slots_ = 1;  // cannot happen: the buffer holds at least max_n
}

#define PREDUCE_BENCH_INPUT(T)                                                                        \
    template std::span<const T> input_buffer<T>();                                                   \
    template class windows<T>;
PREDUCE_FOR_EACH_BUILTIN_ELEMENT(PREDUCE_BENCH_INPUT)
#undef PREDUCE_BENCH_INPUT

} // namespace preduce_bench
