#include "read_probe.hpp"

#include <omp.h>

#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define PREDUCE_BENCH_X86 1
#else
#define PREDUCE_BENCH_X86 0
#endif

namespace preduce_bench {

namespace {

using kernel_fn = std::uint64_t (*)(const unsigned char*, std::size_t);

std::uint64_t tail_xor(const unsigned char* p, std::size_t bytes) noexcept {
    std::uint64_t acc = 0;
    std::size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
        std::uint64_t w;
        std::memcpy(&w, p + i, 8);
        acc ^= w;
    }
    for (; i < bytes; ++i) acc ^= p[i];
    return acc;
}

#if PREDUCE_BENCH_X86
__attribute__((target("avx2"))) std::uint64_t kernel_avx2(const unsigned char* p, std::size_t bytes) {
    __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
    std::size_t i = 0;
    for (; i + 128 <= bytes; i += 128) {
        a0 = _mm256_xor_si256(a0, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i)));
        a1 = _mm256_xor_si256(a1, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 32)));
        a2 = _mm256_xor_si256(a2, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 64)));
        a3 = _mm256_xor_si256(a3, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 96)));
    }
    const __m256i a = _mm256_xor_si256(_mm256_xor_si256(a0, a1), _mm256_xor_si256(a2, a3));
    alignas(32) std::uint64_t lanes[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), a);
    return lanes[0] ^ lanes[1] ^ lanes[2] ^ lanes[3] ^ tail_xor(p + i, bytes - i);
}

std::uint64_t kernel_sse2(const unsigned char* p, std::size_t bytes) {
    __m128i a0 = _mm_setzero_si128(), a1 = a0, a2 = a0, a3 = a0;
    std::size_t i = 0;
    for (; i + 64 <= bytes; i += 64) {
        a0 = _mm_xor_si128(a0, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)));
        a1 = _mm_xor_si128(a1, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 16)));
        a2 = _mm_xor_si128(a2, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 32)));
        a3 = _mm_xor_si128(a3, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i + 48)));
    }
    const __m128i a = _mm_xor_si128(_mm_xor_si128(a0, a1), _mm_xor_si128(a2, a3));
    alignas(16) std::uint64_t lanes[2];
    _mm_store_si128(reinterpret_cast<__m128i*>(lanes), a);
    return lanes[0] ^ lanes[1] ^ tail_xor(p + i, bytes - i);
}
#endif

struct chosen_kernel {
    kernel_fn fn;
    const char* isa;
};

chosen_kernel choose() noexcept {
#if PREDUCE_BENCH_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) return {kernel_avx2, "avx2"};
    return {kernel_sse2, "sse2"};
#else
    return {tail_xor, "scalar"};
#endif
}

const chosen_kernel& kernel() noexcept {
    static const chosen_kernel k = choose();
    return k;
}

} // namespace

const char* read_probe_isa() { return kernel().isa; }

std::uint64_t read_probe(const void* data, std::size_t bytes, int threads) {
    const auto* p = static_cast<const unsigned char*>(data);
    const kernel_fn fn = kernel().fn;
    if (threads <= 1) return fn(p, bytes);
    std::uint64_t acc = 0;
#pragma omp parallel num_threads(threads) reduction(^ : acc)
    {
        const auto t = static_cast<std::size_t>(omp_get_thread_num());
        const auto nt = static_cast<std::size_t>(omp_get_num_threads());
        const std::size_t per = (bytes / nt + 63) / 64 * 64;
        const std::size_t begin = t * per < bytes ? t * per : bytes;
        const std::size_t end = begin + per < bytes ? begin + per : bytes;
        acc ^= fn(p + begin, end - begin);
    }
    return acc;
}

} // namespace preduce_bench
