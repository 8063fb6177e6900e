// backend::automatic on host data: its name, the calibration file it reads (and every way
// such a file can be wrong), the choice and its reason, and that a call through automatic
// gives exactly what the chosen backend gives. Device and managed memory: tests/cuda.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "preduce/preduce.hpp"

using namespace preduce;

namespace {

// A calibration file with `text`, in effect for the scope; the environment and the loaded
// calibration are put back afterwards.
class calibration_file {
public:
    explicit calibration_file(const std::string& text, const char* name = "preduce_test_calibration.json")
        : path_(std::string(std::getenv("TMPDIR") != nullptr ? std::getenv("TMPDIR") : "/tmp") + "/" + name) {
        if (const char* old = std::getenv("PREDUCE_CALIBRATION")) old_ = old;
        std::ofstream(path_) << text;
        ::setenv("PREDUCE_CALIBRATION", path_.c_str(), 1);
        reload_calibration();
    }
    ~calibration_file() {
        std::remove(path_.c_str());
        if (old_.empty()) ::unsetenv("PREDUCE_CALIBRATION");
        else ::setenv("PREDUCE_CALIBRATION", old_.c_str(), 1);
        reload_calibration();
    }
    const std::string& path() const { return path_; }

private:
    std::string path_;
    std::string old_;
};

// The defaults' choice for host data (automatic.hpp): seq under 256 bytes read, else openmp
// where it runs.
backend host_default(std::size_t bytes = 4096) {
    return bytes >= 256 && is_usable(backend::openmp) ? backend::openmp : backend::seq;
}

std::string two_rules(std::uint64_t below, const char* small, const char* large) {
    const std::string rules = "[{\"below_bytes\": " + std::to_string(below) + ", \"backend\": \"" + small +
                              "\"}, {\"below_bytes\": null, \"backend\": \"" + large + "\"}]";
    return "{\"format\": \"preduce-calibration/1\", \"pageable\": " + rules + ", \"pinned\": " + rules + "}";
}

template <class T>
std::vector<T> random_values(std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<T> v(n);
    if constexpr (std::is_floating_point_v<T>) {
        std::uniform_real_distribution<T> u(-1, 1);
        for (auto& x : v) x = u(rng);
    } else {
        std::uniform_int_distribution<T> u(-1000, 1000);
        for (auto& x : v) x = u(rng);
    }
    return v;
}

template <class X>
bool same_bits(const X& a, const X& b) {
    return std::memcmp(&a, &b, sizeof(X)) == 0;
}

} // namespace

TEST_CASE("automatic is named auto, always usable, and not one of the backends", "[frontend][automatic]") {
    CHECK(name(backend::automatic) == "auto");
    CHECK(parse_backend("auto") == backend::automatic);
    CHECK(parse_backend("AUTO") == backend::automatic);
    CHECK(is_built(backend::automatic));
    CHECK(is_usable(backend::automatic));
    CHECK(unusable_reason(backend::automatic).empty());
    for (backend b : available_backends()) CHECK(b != backend::automatic);
    for (backend b : all_backends) CHECK(b != backend::automatic);
    CHECK_THROWS_WITH(parse_backend("nope"), Catch::Contains("auto"));
    CHECK(describe(backend::automatic).rfind("auto(", 0) == 0);
}

TEST_CASE("without a calibration file, host data goes to the default backend", "[frontend][automatic]") {
    const calibration_file none("", "preduce_test_absent.json");
    std::remove(none.path().c_str());
    reload_calibration();
    const std::vector<float> v(1000, 1.0f);
    const automatic_choice c = choose_automatic(v.data(), v.size() * sizeof(float));
    CHECK(c.chosen == host_default());
    CHECK_THAT(c.reason, Catch::Contains("pageable host memory") && Catch::Contains("defaults") &&
                             Catch::Contains("no calibration file at " + none.path()));
    // The small calls' rule: seq under 256 bytes (63 floats), the default from 256 (64).
    CHECK(choose_automatic(v.data(), 63 * sizeof(float)).chosen == backend::seq);
    CHECK(choose_automatic(v.data(), 64 * sizeof(float)).chosen == host_default(64 * sizeof(float)));
    const auto x = random_values<float>(63, 5);
    CHECK(same_bits(reduce(backend::automatic, x, sum), reduce(backend::seq, x, sum)));
    CHECK_THAT(describe(backend::automatic), Catch::Contains("no calibration file"));
    CHECK(current_calibration().source.rfind("defaults", 0) == 0);
    // $PREDUCE_CALIBRATION named this file: its absence is worth a warning.
    CHECK_THAT(current_calibration().warning,
               Catch::Contains("no calibration file at " + none.path()) && Catch::Contains("$PREDUCE_CALIBRATION"));
}

TEST_CASE("without the per-user cache file, the defaults apply and nothing warns", "[frontend][automatic]") {
    // No $PREDUCE_CALIBRATION, and a cache folder without preduce/calibration.json in it: the
    // state of every machine before preduce --calibrate.
    const calibration_file scope("", "preduce_test_unused.json");
    std::string old_cache;
    if (const char* c = std::getenv("XDG_CACHE_HOME")) old_cache = c;
    const std::string folder = std::string(std::getenv("TMPDIR") != nullptr ? std::getenv("TMPDIR") : "/tmp");
    ::unsetenv("PREDUCE_CALIBRATION");
    ::setenv("XDG_CACHE_HOME", (folder + "/preduce_test_no_cache").c_str(), 1);
    reload_calibration();
    CHECK(calibration_path() == folder + "/preduce_test_no_cache/preduce/calibration.json");
    const calibration c = current_calibration();
    CHECK_THAT(c.source, Catch::StartsWith("defaults (no calibration file at " + calibration_path()));
    CHECK(c.warning.empty());
    const std::vector<float> v(1000, 1.0f);
    CHECK(choose_automatic(v.data(), v.size() * sizeof(float)).chosen == host_default());
    if (old_cache.empty()) ::unsetenv("XDG_CACHE_HOME");
    else ::setenv("XDG_CACHE_HOME", old_cache.c_str(), 1);
}

// Sends stderr (fd 2) into a file for its lifetime, and back when it ends, a throw included.
class stderr_into {
public:
    explicit stderr_into(const std::string& path) {
        std::fflush(stderr);
        saved_ = ::dup(2);
        const int to = saved_ < 0 ? -1 : ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const bool moved = to >= 0 && ::dup2(to, 2) >= 0;
        if (to >= 0) ::close(to);
        if (!moved) {
            if (saved_ >= 0) ::close(saved_);
            throw std::runtime_error("cannot redirect stderr to " + path);
        }
    }
    ~stderr_into() {
        std::fflush(stderr);
        ::dup2(saved_, 2);
        ::close(saved_);
    }
    stderr_into(const stderr_into&) = delete;
    stderr_into& operator=(const stderr_into&) = delete;

private:
    int saved_ = -1;
};

TEST_CASE("a calibration file that cannot be used warns once on stderr", "[frontend][automatic][errors]") {
    const calibration_file f("{\"format\": \"preduce-calibration/1\", \"pageable\": []}");
    // stderr into a file while the calibration is read (the first use after a reload).
    const std::string captured = f.path() + ".stderr";
    float first = 0, second = 0;
    {
        const stderr_into redirect(captured);
        const std::vector<float> v(64, 1.0f);
        first = reduce(backend::automatic, v, sum);
        second = reduce(backend::automatic, v, sum);
    }
    CHECK(first == 64.0f);
    CHECK(second == 64.0f);
    std::ifstream in(captured);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::remove(captured.c_str());
    CHECK_THAT(text, Catch::StartsWith("preduce: warning: calibration file " + f.path()) &&
                         Catch::Contains("pageable is not a non-empty list") && Catch::Contains("uses its defaults"));
    CHECK(std::count(text.begin(), text.end(), '\n') == 1);  // once, not per call
}

TEST_CASE("a calibration file's rules choose by bytes read", "[frontend][automatic]") {
    const backend large = host_default();
    const calibration_file f(two_rules(4096, "seq", std::string(name(large)).c_str()));
    CHECK(current_calibration().source == "calibration file " + f.path());
    CHECK_THAT(describe(backend::automatic), Catch::Contains(f.path()));
    CHECK(current_calibration().warning.empty());
    const std::vector<float> v(4096, 1.0f);
    // 1023 floats: 4092 bytes, under the crossover; 1024: 4096 bytes, the next rule's.
    const automatic_choice small = choose_automatic(v.data(), 1023 * sizeof(float));
    CHECK(small.chosen == backend::seq);
    CHECK_THAT(small.reason, Catch::Contains("seq for 0 B to 4 KiB") && Catch::Contains(f.path()));
    const automatic_choice big = choose_automatic(v.data(), 1024 * sizeof(float));
    CHECK(big.chosen == large);
    CHECK_THAT(big.reason, Catch::Contains("from 4 KiB up"));
    // The call itself follows the same rule: bits of the chosen backend, float sums included.
    const auto x = random_values<float>(4096, 7);
    CHECK(same_bits(reduce(backend::automatic, x.data(), 1023, sum), reduce(backend::seq, x.data(), 1023, sum)));
    const options one{.threads = 1};  // a fixed order for openmp's fast sum (see below)
    CHECK(same_bits(reduce(backend::automatic, x.data(), 4096, sum, one), reduce(large, x.data(), 4096, sum, one)));
}

TEST_CASE("a rule naming a backend that cannot run here falls back to the default", "[frontend][automatic]") {
    backend missing = backend::seq;
    for (backend b : all_backends)
        if (!is_usable(b)) missing = b;
    if (missing == backend::seq) {
        // Every backend runs here (a GPU machine): nothing to fall back from. The machines
        // without a GPU (CI) build cuda and cannot use it, and check this.
        WARN("every backend is usable here; no rule can name one that is not");
        return;
    }
    const calibration_file f(two_rules(1u << 20, std::string(name(missing)).c_str(), "seq"));
    const std::vector<float> v(16, 1.0f);
    const automatic_choice c = choose_automatic(v.data(), v.size() * sizeof(float));
    CHECK(c.chosen == host_default(v.size() * sizeof(float)));
    CHECK_THAT(c.reason, Catch::Contains(std::string(name(missing)) + " for 0 B to 1 MiB") &&
                             Catch::Contains("not usable here"));
    CHECK(reduce(backend::automatic, v, sum) == 16.0f);
    // The defaults stand in over the unusable rule's whole range, each of their own ranges
    // inside it as they would without a file; the next rule takes over where it ends.
    for (const std::size_t bytes : {std::size_t{255}, std::size_t{256}, std::size_t{4096}, (std::size_t{1} << 20) - 1}) {
        INFO(bytes);
        CHECK(choose_automatic(v.data(), bytes).chosen == host_default(bytes));
    }
    const automatic_choice next = choose_automatic(v.data(), std::size_t{1} << 20);
    CHECK(next.chosen == backend::seq);
    CHECK_THAT(next.reason, Catch::Contains("seq from 1 MiB up") && !Catch::Contains("not usable"));
}

TEST_CASE("a calibration file that is wrong means the defaults, with the reason", "[frontend][automatic][errors]") {
    const std::string ok = "[{\"below_bytes\": null, \"backend\": \"seq\"}]";
    const auto file = [](const std::string& pageable, const std::string& pinned) {
        return "{\"format\": \"preduce-calibration/1\", \"pageable\": " + pageable + ", \"pinned\": " + pinned + "}";
    };
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"{not json", "not JSON"},
        {"[1, 2]", "format key"},
        {"{\"format\": \"preduce-calibration/2\", \"pageable\": " + ok + ", \"pinned\": " + ok + "}", "format key"},
        {file("[]", ok), "pageable is not a non-empty list"},
        {file(ok, "{}"), "pinned is not a non-empty list"},
        {file("[{\"backend\": \"seq\"}]", ok), "needs backend and below_bytes"},
        {file("[{\"below_bytes\": null, \"backend\": 3}]", ok), "needs backend and below_bytes"},
        {file("[{\"below_bytes\": null, \"backend\": \"gpu9\"}]", ok), "unknown backend 'gpu9'"},
        {file("[{\"below_bytes\": null, \"backend\": \"auto\"}]", ok), "cannot name auto"},
        {file("[{\"below_bytes\": -5, \"backend\": \"seq\"}, " + ok.substr(1), ok), "not a byte count"},
        {file("[{\"below_bytes\": \"4k\", \"backend\": \"seq\"}, " + ok.substr(1), ok), "not a byte count"},
        {file("[{\"below_bytes\": 64, \"backend\": \"seq\"}, {\"below_bytes\": 64, \"backend\": \"seq\"}, " +
                  ok.substr(1),
              ok),
         "must increase"},
        {file("[{\"below_bytes\": 0, \"backend\": \"seq\"}, " + ok.substr(1), ok), "must increase"},
        {file("[{\"below_bytes\": 64, \"backend\": \"seq\"}]", ok), "needs below_bytes null"},
        {file(ok, ok + ", \"comparisons\": 5"), "comparisons is not an object"},
        {file(ok, ok + ", \"comparisons\": {\"pageable\": " + ok + "}"), "comparisons.pinned is not a non-empty list"},
        {file(ok, ok + ", \"comparisons\": {\"pageable\": [{\"below_bytes\": 9, \"backend\": \"seq\"}], \"pinned\": " + ok +
                      "}"),
         "comparisons.pageable: the last rule needs below_bytes null"},
    };
    for (const auto& [text, why] : bad) {
        INFO(text);
        const calibration_file f(text);
        const calibration c = current_calibration();
        CHECK_THAT(c.source, Catch::StartsWith("defaults (calibration file " + f.path()) && Catch::Contains(why));
        CHECK_THAT(c.warning, Catch::StartsWith("calibration file " + f.path()) && Catch::Contains(why));
        CHECK_THAT(describe(backend::automatic), Catch::Contains(why));
        const std::vector<float> v(8, 1.0f);
        CHECK(choose_automatic(v.data(), 32).chosen == host_default(32));
        CHECK(choose_automatic(v.data(), 4096).chosen == host_default(4096));
        CHECK(choose_automatic(v.data(), 4096, operation_family::comparisons).chosen == host_default(4096));
        CHECK(reduce(backend::automatic, v, sum) == 8.0f);
        CHECK_THROWS_AS(calibration_from_json(text, "x"), preduce::invalid_argument);
    }
}

TEST_CASE("calibration_to_json and calibration_from_json round-trip", "[frontend][automatic]") {
    calibration c;
    c.pageable = {{128, backend::seq}, {std::numeric_limits<std::uint64_t>::max(), host_default()}};
    c.pinned = {{std::numeric_limits<std::uint64_t>::max(), backend::seq}};
    const std::string text = calibration_to_json(c, "{\"what\": \"a test\", \"n\": [16, 64]}");
    CHECK_THAT(text, Catch::Contains("\"measured\"") && Catch::Contains("a test"));
    const calibration back = calibration_from_json(text, "round-trip");
    REQUIRE(back.pageable.size() == 2);
    REQUIRE(back.pinned.size() == 1);
    CHECK(back.pageable[0].below_bytes == 128);
    CHECK(back.pageable[0].chosen == backend::seq);
    CHECK(back.pageable[1].below_bytes == std::numeric_limits<std::uint64_t>::max());
    CHECK(back.pageable[1].chosen == host_default());
    CHECK(back.pinned[0].chosen == backend::seq);
    CHECK(back.source == "calibration file round-trip");
    // Without rules of their own the comparisons are not written, and read back as none.
    CHECK_THAT(text, !Catch::Contains("comparisons"));
    CHECK(back.comparisons_pageable.empty());
    CHECK(back.comparisons_pinned.empty());
    c.comparisons_pageable = {{64, backend::openmp}, {std::numeric_limits<std::uint64_t>::max(), backend::seq}};
    const calibration own = calibration_from_json(calibration_to_json(c), "own");
    REQUIRE(own.comparisons_pageable.size() == 2);
    CHECK(own.comparisons_pageable[0].below_bytes == 64);
    CHECK(own.comparisons_pageable[0].chosen == backend::openmp);
    CHECK(own.comparisons_pageable[1].chosen == backend::seq);
    // A family without rules of its own for one residency is written with the sums' rules.
    REQUIRE(own.comparisons_pinned.size() == 1);
    CHECK(own.comparisons_pinned[0].chosen == backend::seq);
}

TEST_CASE("operations fall into the sums and the comparisons", "[frontend][automatic]") {
    using F = operation_family;
    STATIC_REQUIRE(operation_family_of<float>(preduce::max) == F::comparisons);
    STATIC_REQUIRE(operation_family_of<float>(preduce::min) == F::comparisons);
    STATIC_REQUIRE(operation_family_of<float>(argmin) == F::comparisons);
    STATIC_REQUIRE(operation_family_of<std::int32_t>(argmax) == F::comparisons);
    STATIC_REQUIRE(operation_family_of<double>(minmax) == F::comparisons);
    STATIC_REQUIRE(operation_family_of<float>(sum) == F::sums);
    STATIC_REQUIRE(operation_family_of<float>(sumsq) == F::sums);
    STATIC_REQUIRE(operation_family_of<float>(asum) == F::sums);
    STATIC_REQUIRE(operation_family_of<float>(prod) == F::sums);
    STATIC_REQUIRE(operation_family_of<std::int32_t>(wide_sum) == F::sums);
    STATIC_REQUIRE(operation_family_of<float>(mean) == F::sums);
    STATIC_REQUIRE(operation_family_of<float>(moments) == F::sums);
    STATIC_REQUIRE(operation_family_of<float>(count_if(greater(0.0f))) == F::sums);
}

TEST_CASE("the comparisons follow rules of their own where the file has them", "[frontend][automatic]") {
    // Sums: seq below 4096 bytes, the default above. Comparisons: the default below 6144 bytes,
    // seq above.
    const std::string def(name(host_default()));
    const std::string sums = "[{\"below_bytes\": 4096, \"backend\": \"seq\"}, {\"below_bytes\": null, \"backend\": \"" +
                             def + "\"}]";
    const std::string comparisons = "[{\"below_bytes\": 6144, \"backend\": \"" + def +
                                    "\"}, {\"below_bytes\": null, \"backend\": \"seq\"}]";
    const calibration_file f("{\"format\": \"preduce-calibration/1\", \"pageable\": " + sums + ", \"pinned\": " + sums +
                             ", \"comparisons\": {\"pageable\": " + comparisons + ", \"pinned\": " + comparisons + "}}");
    REQUIRE(current_calibration().warning.empty());
    const std::vector<float> v(8192, 1.0f);
    const automatic_choice small = choose_automatic(v.data(), 1000, operation_family::comparisons);
    const automatic_choice large = choose_automatic(v.data(), 8000, operation_family::comparisons);
    CHECK(small.chosen == host_default());
    CHECK(large.chosen == backend::seq);
    CHECK_THAT(large.reason, Catch::Contains("seq from 6 KiB up, by the comparisons' rules of calibration file " + f.path()));
    CHECK(choose_automatic(v.data(), 1000, operation_family::sums).chosen == backend::seq);
    CHECK(choose_automatic(v.data(), 8000).chosen == host_default());
    CHECK_THAT(choose_automatic(v.data(), 8000).reason, !Catch::Contains("comparisons"));
    // The route asks for a sum's family: openmp's fast sum on one thread adds in lanes, seq
    // from left to right, so the bits tell which of the two rules ran (where they differ).
    const auto x = random_values<float>(2000, 11);  // 8000 bytes: the default for sums, seq for comparisons
    const options one{.threads = 1};
    if (host_default() != backend::seq)
        REQUIRE(!same_bits(reduce(host_default(), x, sum, one), reduce(backend::seq, x, sum, one)));
    CHECK(same_bits(reduce(backend::automatic, x, sum, one), reduce(host_default(), x, sum, one)));
    CHECK(reduce(backend::automatic, x, argmin) == reduce(backend::seq, x, argmin));
}

TEST_CASE("every op through automatic gives the chosen backend's result", "[frontend][automatic]") {
    const calibration_file f(two_rules(3000, "seq", std::string(name(host_default())).c_str()));
    // Fast float sums on one thread: openmp's reduction clause combines its threads' partials
    // in no fixed order, so two calls of the same backend may differ in the last bits.
    const options one{.threads = 1};
    for (std::size_t n : {std::size_t{1}, std::size_t{100}, std::size_t{749}, std::size_t{750}, std::size_t{100003}}) {
        INFO("n = " << n);
        const auto x = random_values<float>(n, static_cast<std::uint32_t>(n));
        const auto y = random_values<float>(n, static_cast<std::uint32_t>(n + 1));
        const auto i = random_values<std::int32_t>(n, static_cast<std::uint32_t>(n + 2));
        const backend chosen = choose_automatic(x.data(), n * sizeof(float)).chosen;
        CHECK(chosen == (n * sizeof(float) < 3000 ? backend::seq : host_default()));
        CHECK(same_bits(reduce(backend::automatic, x, sum, one), reduce(chosen, x, sum, one)));
        CHECK(same_bits(reduce(backend::automatic, x, preduce::max), reduce(chosen, x, preduce::max)));
        CHECK(reduce(backend::automatic, x, argmin) == reduce(chosen, x, argmin));
        CHECK(same_bits(reduce(backend::automatic, x, sumsq, one), reduce(chosen, x, sumsq, one)));
        CHECK(same_bits(reduce(backend::automatic, x, minmax), reduce(chosen, x, minmax)));
        CHECK(reduce(backend::automatic, i, wide_sum) == reduce(chosen, i, wide_sum));
        // dot reads both inputs: its bytes are twice x's, which may cross the rule.
        const backend dot_chosen = choose_automatic(x.data(), 2 * n * sizeof(float)).chosen;
        CHECK(same_bits(reduce(backend::automatic, x, y, dot, one), reduce(dot_chosen, x, y, dot, one)));
        // The fixed orders: the same bits as seq, whatever was chosen.
        for (precision p : {precision::deterministic, precision::compensated}) {
            const options o{.precision = p};
            CHECK(same_bits(reduce(backend::automatic, x, sum, o), reduce(backend::seq, x, sum, o)));
            CHECK(same_bits(reduce(backend::automatic, x, y, dot, o), reduce(backend::seq, x, y, dot, o)));
        }
    }
}

TEST_CASE("many results per call through automatic", "[frontend][automatic]") {
    const calibration_file f(two_rules(3000, "seq", std::string(name(host_default())).c_str()));
    const auto x = random_values<float>(6000, 11);
    const backend chosen = choose_automatic(x.data(), x.size() * sizeof(float)).chosen;
    CHECK(reduce_batches(backend::automatic, x, 60, sum) == reduce_batches(chosen, x, 60, sum));
    const std::vector<std::uint64_t> offsets{0, 1, 1, 4000, 6000};
    CHECK(reduce_segments(backend::automatic, x, offsets, preduce::max) == reduce_segments(chosen, x, offsets, preduce::max));
    const std::vector<std::size_t> shape{60, 100};
    const std::vector<int> axes{0};
    CHECK(reduce_axes(backend::automatic, x.data(), shape, axes, sum) == reduce_axes(chosen, x.data(), shape, axes, sum));
    const std::span<const float> head(x.data(), 100);  // 400 bytes: seq
    CHECK(reduce_batches(backend::automatic, head, 10, sum) == reduce_batches(backend::seq, head, 10, sum));
}

TEST_CASE("bad input through automatic is refused as the backends refuse it", "[frontend][automatic][errors]") {
    const calibration_file f(two_rules(3000, "seq", std::string(name(host_default())).c_str()));
    CHECK_THROWS_AS(reduce(backend::automatic, static_cast<const float*>(nullptr), 5, sum), preduce::invalid_argument);
    CHECK(reduce(backend::automatic, static_cast<const float*>(nullptr), 0, sum) == -0.0f);
    const std::vector<float> v(10, 1.0f);
    CHECK_THROWS_AS(reduce(backend::automatic, v, sum, {.threads = -1}), preduce::invalid_argument);
}
