// Running out of host memory inside a backend: the fixed-order sums keep one value per
// 4096-element block, allocated before any element is read, so a large enough input
// makes that allocation fail. It must come back as preduce::out_of_memory (not a bare
// std::bad_alloc, not std::terminate from inside a parallel region), and the next call
// must work.
//
// Without undefined behaviour: the input is real memory, a read-only anonymous mapping of
// 2^36 floats (256 GiB of address space backed by the kernel's one zero page, no RAM),
// and the allocation fails because RLIMIT_AS leaves 16 MiB of address space while the
// workspace needs 64 MiB (deterministic) or 256 MiB (compensated). Had a backend read
// the data before allocating, it would have returned 0 after ~10 s instead of throwing,
// and failed the check rather than hang.
#include <catch2/catch.hpp>

#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "preduce/preduce.hpp"
#include "support/data.hpp"

using namespace preduce;

// ASan and TSan reserve terabytes of shadow address space and allocate through their own
// mappings, so an address-space limit breaks the sanitizer instead of the allocation.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PREDUCE_RLIMIT_AS_USABLE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer) || \
    __has_feature(leak_sanitizer)
#define PREDUCE_RLIMIT_AS_USABLE 0
#endif
#endif
#ifndef PREDUCE_RLIMIT_AS_USABLE
#define PREDUCE_RLIMIT_AS_USABLE 1
#endif

namespace {

// A test that cannot run here must say so rather than pass: ctest runs each test case in
// its own process and counts exit status 77 as skipped (SKIP_RETURN_CODE in
// tests/reliability/CMakeLists.txt).
[[noreturn]] void skip(const char* why) {
    std::printf("SKIPPED: %s\n", why);
    std::fflush(stdout);
    std::exit(77);
}

// Address space this process holds now (VmSize), in bytes.
std::size_t address_space_in_use() {
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0;
    statm >> pages;
    return pages * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

// Lowers RLIMIT_AS to what is in use plus `headroom` until destroyed.
class address_space_limit {
public:
    explicit address_space_limit(std::size_t headroom) {
        REQUIRE(getrlimit(RLIMIT_AS, &old_) == 0);
        rlimit lowered = old_;
        lowered.rlim_cur = address_space_in_use() + headroom;
        REQUIRE(setrlimit(RLIMIT_AS, &lowered) == 0);
    }
    address_space_limit(const address_space_limit&) = delete;
    address_space_limit& operator=(const address_space_limit&) = delete;
    ~address_space_limit() { setrlimit(RLIMIT_AS, &old_); }

private:
    rlimit old_{};
};

struct zero_mapping {
    void* p = MAP_FAILED;
    std::size_t bytes;
    explicit zero_mapping(std::size_t b) : bytes(b) {
        p = mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    }
    ~zero_mapping() {
        if (p != MAP_FAILED) munmap(p, bytes);
    }
};

} // namespace

TEST_CASE("a host workspace allocation that fails is out_of_memory, and the next call works", "[errors][memory]") {
    if (!PREDUCE_RLIMIT_AS_USABLE)
        skip("built with a sanitizer, whose allocator and shadow memory an RLIMIT_AS limit would break "
             "before the workspace allocation under test fails");
    const std::size_t n = std::size_t{1} << 36;
    const zero_mapping zeros(n * sizeof(float));
    if (zeros.p == MAP_FAILED) skip("cannot map 256 GiB of address space for the input here (ulimit -v?)");
    const auto* data = static_cast<const float*>(zeros.p);
    const auto v = preduce::test::random_values<float>(100003, 5);
    std::vector<backend> cpu;
    for (backend b : available_backends())
        if (b != backend::cuda) cpu.push_back(b);
    // Start every backend's runtime (Kokkos, OpenMP's thread pool) while memory is plentiful:
    // the failure under test is the workspace's, not a runtime's first allocation.
    for (backend b : cpu) (void)reduce(b, v, sum, {.precision = precision::deterministic});

    for (precision p : {precision::deterministic, precision::compensated}) {
        for (backend b : cpu) {
            INFO(name(b) << ", " << name(p));
            bool threw_out_of_memory = false;
            std::string other;
            {
                const address_space_limit limit(std::size_t{16} << 20);
                try {
                    (void)reduce(b, data, n, sum, {.threads = 2, .precision = p});
                    other = "returned";
                } catch (const preduce::out_of_memory& e) {
                    threw_out_of_memory = std::string(e.what()).find("memory") != std::string::npos;
                    other = e.what();
                } catch (const std::exception& e) {
                    other = std::string("another exception: ") + e.what();
                }
            }
            INFO(other);
            CHECK(threw_out_of_memory);
            const float want = reduce(backend::seq, v, sum, {.precision = p});
            CHECK(reduce(b, v, sum, {.threads = 2, .precision = p}) == want);
        }
    }
}
