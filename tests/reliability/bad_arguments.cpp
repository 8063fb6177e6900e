// Arguments no reduction can use, on every usable backend: each one is an
// invalid_argument whose message names the problem (never a crash, never an answer), and
// the next call on the same backend gives the right answer. backend_cases.cpp covers
// null and misaligned float data and unrepresentable count_if thresholds; these are the
// other element types, the second input of dot, the fixed-order paths, impossible
// lengths, enum values outside the enum and options out of range.
#include <catch2/catch.hpp>

#include <climits>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "preduce/preduce.hpp"
#include "oracle/compare.hpp"
#include "support/data.hpp"

using namespace preduce;
using namespace preduce::test;

namespace {

// f() must throw E (exactly that type or a subclass) with `text` in its message.
template <class E, class F>
void expect_error(F&& f, const std::string& text) {
    std::string outcome;
    try {
        f();
        outcome = "returned normally";
    } catch (const E& e) {
        const std::string what = e.what();
        INFO("message: " << what);
        CHECK(what.find(text) != std::string::npos);
        return;
    } catch (const std::exception& e) {
        outcome = std::string("threw another type: ") + e.what();
    }
    INFO("expected an exception mentioning '" << text << "'; " << outcome);
    CHECK(false);
}

// After an error, the backend that raised it still reduces fresh data correctly.
void next_call_works(backend b) {
    const auto v = random_values<std::int64_t>(70001, 99);
    INFO("next call on " << name(b));
    CHECK(reduce(b, v, sum, {.threads = 2}) == reduce(backend::seq, v, sum));
    CHECK(same(reduce(b, v, argmax), reduce(backend::seq, v, argmax)));
}

template <class T>
void null_data(backend b) {
    const T* none = nullptr;
    expect_error<preduce::invalid_argument>([&] { (void)reduce(b, none, 3, sum); }, "null");
    expect_error<preduce::invalid_argument>([&] { (void)reduce(b, none, 1, argmin); }, "null");
    expect_error<preduce::invalid_argument>([&] { (void)reduce(b, none, 100000, minmax); }, "null");
    expect_error<preduce::invalid_argument>([&] { (void)reduce(b, none, 7, sum, {.precision = precision::deterministic}); },
                                            "null");
    const std::vector<T> v(8, T(1));
    expect_error<preduce::invalid_argument>([&] { (void)reduce(b, v.data(), none, v.size(), dot); }, "null");
    expect_error<preduce::invalid_argument>([&] { (void)reduce(b, none, v.data(), v.size(), dot); }, "null");
}

// A pointer one `shift` bytes past an element boundary.
template <class T>
const T* shifted(const std::vector<T>& v, std::size_t shift) {
    return reinterpret_cast<const T*>(reinterpret_cast<const char*>(v.data()) + shift);
}

template <class T>
void misaligned(backend b, std::size_t shift) {
    const std::vector<T> v(64, T(1));
    const T* p = shifted(v, shift);
    expect_error<preduce::invalid_argument>([&] { (void)reduce(b, p, 8, sum); }, "aligned");
    expect_error<preduce::invalid_argument>([&] { (void)reduce(b, p, 8, preduce::max, {.threads = 3}); }, "aligned");
    expect_error<preduce::invalid_argument>([&] { (void)reduce(b, p, 8, sum, {.precision = precision::compensated}); },
                                            "aligned");
    expect_error<preduce::invalid_argument>([&] { (void)reduce(b, v.data(), p, 8, dot); }, "aligned");
}

// Lengths no array can have, at a real, aligned pointer: n * sizeof(T) overflows (a
// negative count converted to size_t, say). The check must come before any backend reads.
template <class T>
void impossible_lengths(backend b) {
    const std::vector<T> v(16, T(1));
    const std::size_t max = std::numeric_limits<std::size_t>::max();
    for (std::size_t n : {max / 2, max, static_cast<std::size_t>(-5), max / sizeof(T) + 1}) {
        INFO("n = " << n);
        expect_error<preduce::invalid_argument>([&] { (void)reduce(b, v.data(), n, sum); }, "address space");
        expect_error<preduce::invalid_argument>([&] { (void)reduce(b, v.data(), n, argmin); }, "address space");
        expect_error<preduce::invalid_argument>([&] { (void)reduce(b, v.data(), v.data(), n, dot); }, "address space");
    }
}

} // namespace

TEST_CASE("null data with n > 0 is invalid_argument for every element type, op path and input", "[errors]") {
    for (backend b : available_backends()) {
        INFO("backend " << name(b));
        null_data<std::int32_t>(b);
        null_data<std::uint32_t>(b);
        null_data<std::int64_t>(b);
        null_data<std::uint64_t>(b);
        null_data<float>(b);
        null_data<double>(b);
        next_call_works(b);
    }
}

TEST_CASE("pointers not aligned to their element type are invalid_argument", "[errors]") {
    for (backend b : available_backends()) {
        INFO("backend " << name(b));
        misaligned<std::int32_t>(b, 2);
        misaligned<std::uint32_t>(b, 1);
        misaligned<std::int64_t>(b, 4);  // 4-byte aligned, as 32-bit code would lay it out
        misaligned<std::uint64_t>(b, 2);
        misaligned<double>(b, 4);
        next_call_works(b);
    }
}

TEST_CASE("lengths whose byte count overflows size_t are invalid_argument", "[errors]") {
    for (backend b : available_backends()) {
        INFO("backend " << name(b));
        impossible_lengths<std::int32_t>(b);
        impossible_lengths<std::uint64_t>(b);
        impossible_lengths<float>(b);
        impossible_lengths<double>(b);
        next_call_works(b);
    }
}

TEST_CASE("backend values outside the enum are invalid_argument, and the queries answer 'no'", "[errors]") {
    const std::vector<float> v(100, 0.5f);
    const int past = static_cast<int>(backend::automatic) + 1;  // automatic is the enum's last value
    for (int value : {past, past + 1, 255, -1, INT_MIN}) {
        const auto b = static_cast<backend>(value);
        INFO("backend value " << value);
        expect_error<preduce::invalid_argument>([&] { (void)reduce(b, v, sum); }, "not a preduce::backend");
        expect_error<preduce::invalid_argument>([&] { (void)reduce(b, v, argmax); }, "not a preduce::backend");
        expect_error<preduce::invalid_argument>([&] { (void)reduce(b, v, v, dot); }, "not a preduce::backend");
        expect_error<preduce::invalid_argument>(
            [&] { (void)reduce(b, v, sum, {.precision = precision::deterministic}); }, "not a preduce::backend");
        CHECK(name(b) == "unknown");
        CHECK_FALSE(is_built(b));
        CHECK_FALSE(is_usable(b));
        CHECK_FALSE(unusable_reason(b).empty());
        CHECK(describe(b) == "unknown");
    }
    for (backend b : available_backends()) next_call_works(b);
}

TEST_CASE("options out of range are invalid_argument naming the option, on every backend", "[errors][options]") {
    const auto v = random_values<float>(100003, 7);  // past openmp's parallel threshold
    for (backend b : available_backends()) {
        INFO("backend " << name(b));
        // 4096 is the most threads the front end accepts; asked for far more, libgomp
        // crashes (SIGSEGV at 100000) or exits the process (INT_MAX).
        for (int threads : {-1, -100, INT_MIN, 4097, 100000, INT_MAX}) {
            INFO("threads " << threads);
            expect_error<preduce::invalid_argument>([&] { (void)reduce(b, v, sum, {.threads = threads}); },
                                                    "options::threads");
            expect_error<preduce::invalid_argument>(
                [&] { (void)reduce(b, v, sum, {.threads = threads, .precision = precision::deterministic}); },
                "options::threads");
        }
        for (int gpus : {-1, INT_MIN}) {
            INFO("gpus " << gpus);
            expect_error<preduce::invalid_argument>([&] { (void)reduce(b, v, sum, {.gpus = gpus}); }, "options::gpus");
        }
        // An out-of-range precision is refused as such, by every op: it must neither run as
        // fast without a word (sum) nor be reported as "precision::unknown" by an op that
        // refuses non-fast precisions (mean).
        for (int p : {3, 255, -1}) {
            INFO("precision " << p);
            const options o{.precision = static_cast<precision>(p)};
            expect_error<preduce::invalid_argument>([&] { (void)reduce(b, v, sum, o); }, "options::precision");
            expect_error<preduce::invalid_argument>([&] { (void)reduce(b, v, preduce::max, o); }, "options::precision");
            expect_error<preduce::invalid_argument>([&] { (void)reduce(b, v, mean, o); }, "options::precision");
        }
        // The edges that are valid still run and agree with seq.
        for (int threads : {0, 1, 64})
            CHECK(same(reduce(b, v, argmin, {.threads = threads}), reduce(backend::seq, v, argmin)));
        CHECK(reduce(b, v, count_if(greater(0.0f)), {.gpus = 0}) == reduce(backend::seq, v, count_if(greater(0.0f))));
        next_call_works(b);
    }
}
