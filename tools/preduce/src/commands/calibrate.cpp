#include "commands/calibrate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <fstream>
#include <limits>
#include <map>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <preduce/automatic.hpp>
#include <preduce/preduce.hpp>

#if PREDUCE_CLI_CUDART
#include <cuda_runtime_api.h>
#endif

#include "cli_error.hpp"
#include "interleaved_samples.hpp"

namespace preduce_cli {
namespace {

// Host memory of one residency: ordinary (pageable) memory, or memory pinned by CUDA.
struct host_floats {
    float* data = nullptr;
    std::size_t size = 0;
    std::vector<float> pageable;
    bool pinned = false;
    host_floats(std::size_t n, bool pin) : size(n), pinned(pin) {
#if PREDUCE_CLI_CUDART
        if (pin) {
            if (cudaMallocHost(reinterpret_cast<void**>(&data), n * sizeof(float)) != cudaSuccess)
                throw input_error("--calibrate: cudaMallocHost of " + std::to_string(n * sizeof(float)) + " bytes failed");
        }
#endif
        if (!pinned) {
            pageable.resize(n);
            data = pageable.data();
        }
        std::uint64_t x = 0x9e3779b97f4a7c15ull;
        for (std::size_t i = 0; i < n; ++i) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            data[i] = static_cast<float>((x >> 11) * 0x1.0p-53 * 2.0 - 1.0);
        }
    }
    host_floats(const host_floats&) = delete;
    host_floats& operator=(const host_floats&) = delete;
    ~host_floats() {
#if PREDUCE_CLI_CUDART
        if (pinned && data != nullptr) cudaFreeHost(data);
#endif
    }
};

// The operation measured for a family of automatic's rules: sum for the sums, argmin for the
// comparisons. argmin's loop (value and index) is the family's costliest and the one whose
// backends differ the most at small n; its crossovers serve min and max within a few percent,
// where max's would not serve argmin.
const char* measured_op(preduce::operation_family family) {
    return family == preduce::operation_family::comparisons ? "argmin" : "sum";
}

// One call of the family's measured operation (measured_op) on x[0, n).
float call_measured(preduce::operation_family family, preduce::backend b, const float* x, std::size_t n,
                    const preduce::options& opts) {
    return family == preduce::operation_family::comparisons
               ? static_cast<float>(preduce::reduce(b, x, n, preduce::argmin, opts).index)
               : preduce::reduce(b, x, n, preduce::sum, opts);
}

struct measured_residency {
    std::vector<std::size_t> sizes;                                 // elements
    std::map<preduce::backend, std::vector<double>> seconds;       // per backend, per size
    std::vector<preduce::calibration_rule> rules;
};

// A backend within this factor of the fastest at a measured size may keep that size, against
// timer noise, which at the smallest sizes is as large as the differences. No larger: auto's
// own work adds a few percent to the backend it picks, and the benchmark's grid asks auto to
// come within 10% of the fastest backend.
constexpr double keep_within = 1.05;

// At each measured size, the backend of the rule before while it is within keep_within of the
// fastest, else the default backend (automatic.hpp: openmp where it runs) while it is, else
// the fastest. A crossover between two measured sizes is placed at their geometric mean, in
// bytes.
std::vector<preduce::calibration_rule> rules_of(const measured_residency& m) {
    const preduce::backend fallback =
        m.seconds.count(preduce::backend::openmp) ? preduce::backend::openmp : preduce::backend::seq;
    std::vector<preduce::calibration_rule> rules;
    for (std::size_t i = 0; i < m.sizes.size(); ++i) {
        preduce::backend best{};
        double fastest = std::numeric_limits<double>::infinity();
        for (const auto& [b, s] : m.seconds)
            if (s[i] < fastest) fastest = s[i], best = b;
        const auto keeps = [&](preduce::backend b) {
            return m.seconds.count(b) != 0 && m.seconds.at(b)[i] <= keep_within * fastest;
        };
        if (!rules.empty() && keeps(rules.back().chosen)) continue;
        if (keeps(fallback)) best = fallback;
        if (!rules.empty()) {
            const double lo = static_cast<double>(m.sizes[i - 1] * sizeof(float));
            const double hi = static_cast<double>(m.sizes[i] * sizeof(float));
            rules.back().below_bytes = static_cast<std::uint64_t>(std::sqrt(lo * hi));
        }
        rules.push_back({std::numeric_limits<std::uint64_t>::max(), best});
    }
    return rules;
}

// Every backend's median call of the family's operation on n floats, timed as the
// benchmark's automatic/ rows time them (preduce_timing::interleaved_samples): the backends in
// turn, in an order drawn afresh each round, each call on the window of `data` after the last
// call's, so that it reads memory the calls before it did not leave in cache. Rounds: up to
// 101, fewer where the slowest backend would pass ~0.2 s, at least 5.
std::vector<double> median_calls(const host_floats& data, std::size_t n, preduce::operation_family family,
                                 const preduce::options& opts, const std::vector<preduce::backend>& backends) {
    const std::size_t windows = data.size / n;
    volatile float sink = 0;
    using call_t = std::function<void(std::size_t)>;
    std::vector<preduce_timing::candidate<call_t>> candidates;
    for (preduce::backend b : backends)
        candidates.push_back({std::string(preduce::name(b)), [&, b](std::size_t i) {
                                  sink = call_measured(family, b, data.data + (i % windows) * n, n, opts);
                              }});
    preduce_timing::interleaved_samples<call_t> samples(candidates);
    const double per_round = samples.slowest_call() * static_cast<double>(samples.calls_a_sample());
    const int rounds = static_cast<int>(std::clamp(0.2 / std::max(per_round, 1e-9), 5.0, 101.0));
    for (int r = 0; r < rounds; ++r) samples.round();
    return samples.medians();
}

// Passes over the sizes: each backend keeps, per size, the lower of its passes' medians. What
// else runs on the machine only ever adds time, and on a shared host it comes in bursts that
// can outlast every round at one size, so that a backend loses a size it wins (its median
// there above its median at four times the size); a second pass, seconds later, rarely meets
// the same burst at the same size.
constexpr int passes = 2;

measured_residency measure(const host_floats& data, preduce::operation_family family, const calibrate_settings& s,
                           const std::vector<preduce::backend>& backends) {
    measured_residency m;
    for (int e = 4; e <= s.max_log2; e += 2) m.sizes.push_back(std::size_t{1} << e);
    const preduce::options opts{.threads = s.threads};
    for (preduce::backend b : backends)
        m.seconds[b].assign(m.sizes.size(), std::numeric_limits<double>::infinity());
    for (int pass = 0; pass < passes; ++pass) {
        for (std::size_t i = 0; i < m.sizes.size(); ++i) {
            const std::vector<double> medians = median_calls(data, m.sizes[i], family, opts, backends);
            for (std::size_t k = 0; k < backends.size(); ++k)
                m.seconds[backends[k]][i] = std::min(m.seconds[backends[k]][i], medians[k]);
        }
    }
    m.rules = rules_of(m);
    return m;
}

// Both families on one residency's memory.
struct measured_memory {
    measured_residency sums;
    measured_residency comparisons;
};

// The floats a residency's calls read in turn: 2^26 (256 MiB, more than a last-level cache
// holds) or the largest n measured, if larger.
measured_memory measure(bool pinned, const calibrate_settings& s, const std::vector<preduce::backend>& backends) {
    const host_floats data(std::size_t{1} << std::max(s.max_log2, 26), pinned);
    return {measure(data, preduce::operation_family::sums, s, backends),
            measure(data, preduce::operation_family::comparisons, s, backends)};
}

nlohmann::ordered_json to_json(const measured_residency& m) {
    nlohmann::ordered_json j;
    j["n"] = m.sizes;
    for (const auto& [b, s] : m.seconds) {
        std::vector<double> us;
        for (double x : s) us.push_back(std::round(x * 1e9) / 1000);  // microseconds, 3 decimals
        j["median_us"][std::string(preduce::name(b))] = us;
    }
    return j;
}

void print(const char* what, preduce::operation_family family, const measured_residency& m) {
    fmt::print("{} host memory: median call of {} over float32, microseconds\n{:>12}", what, measured_op(family), "n");
    for (const auto& [b, s] : m.seconds) fmt::print("  {:>10}", preduce::name(b));
    fmt::print("  fastest\n");
    for (std::size_t i = 0; i < m.sizes.size(); ++i) {
        fmt::print("{:>12}", m.sizes[i]);
        preduce::backend best{};
        double t = std::numeric_limits<double>::infinity();
        for (const auto& [b, s] : m.seconds) {
            fmt::print("  {:>10.2f}", s[i] * 1e6);
            if (s[i] < t) t = s[i], best = b;
        }
        fmt::print("  {}\n", preduce::name(best));
    }
}

} // namespace

int run_calibration(const calibrate_settings& s) {
    const std::string path = s.path.empty() ? preduce::calibration_path() : s.path;
    if (path.empty()) throw usage_error("--calibrate: no file to write (set PREDUCE_CALIBRATION or HOME, or give --calibration-file)");
    // The file is opened first: a path that cannot be written fails before any measuring.
    const std::filesystem::path file(path);
    std::error_code made;
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path(), made);
    if (made) throw input_error("--calibrate: cannot make the folder of " + path + ": " + made.message());
    std::ofstream out(path);
    if (!out) throw input_error("--calibrate: cannot write " + path);
    const std::vector<preduce::backend> backends = preduce::available_backends();
    const auto comparisons = preduce::operation_family::comparisons;
    const measured_memory pageable = measure(false, s, backends);
    print("pageable", preduce::operation_family::sums, pageable.sums);
    print("pageable", comparisons, pageable.comparisons);
    preduce::calibration c;
    c.pageable = pageable.sums.rules;
    c.comparisons_pageable = pageable.comparisons.rules;
    nlohmann::ordered_json measured;
    measured["what"] = fmt::format("median call of preduce::reduce(backend, data, n, op) over float32, host wall "
                                   "clock, the backends in turn, each call on memory the calls before it did not "
                                   "read, the lowest of {} passes' medians: sum for the sums' rules (pageable, "
                                   "pinned), argmin for the comparisons' (comparisons)",
                                   passes);
    measured["pageable"] = to_json(pageable.sums);
    measured["comparisons"]["pageable"] = to_json(pageable.comparisons);
    bool pinned_measured = false;
#if PREDUCE_CLI_CUDART
    if (preduce::is_usable(preduce::backend::cuda)) {
        const measured_memory pinned = measure(true, s, backends);
        print("pinned", preduce::operation_family::sums, pinned.sums);
        print("pinned", comparisons, pinned.comparisons);
        c.pinned = pinned.sums.rules;
        c.comparisons_pinned = pinned.comparisons.rules;
        measured["pinned"] = to_json(pinned.sums);
        measured["comparisons"]["pinned"] = to_json(pinned.comparisons);
        pinned_measured = true;
    }
#endif
    if (!pinned_measured) {  // no GPU to pin memory for: the same rules
        c.pinned = c.pageable;
        c.comparisons_pinned = c.comparisons_pageable;
    }
    out << preduce::calibration_to_json(c, measured.dump());
    if (!out) throw input_error("--calibrate: cannot write " + path);
    out.close();
    // backend::automatic reads the file calibration_path() names, which need not be this one
    // (--calibration-file): its description is only this file's where the two are the same.
    const std::string reads = preduce::calibration_path();
    std::error_code unknown;  // no file at `reads` (or no `reads`): not the same file
    if (std::filesystem::equivalent(file, reads, unknown)) {
        preduce::reload_calibration();
        fmt::print("wrote {}: {}\n", path, preduce::describe(preduce::backend::automatic));
    } else {
        fmt::print("wrote {}; backend::automatic reads {}, so set PREDUCE_CALIBRATION={} to use this one\n", path,
                   reads.empty() ? "no file here (neither PREDUCE_CALIBRATION nor HOME is set)" : reads, path);
    }
    for (const auto& [what, rules] :
         {std::pair{"sums, pageable", &c.pageable}, std::pair{"sums, pinned", &c.pinned},
          std::pair{"comparisons, pageable", &c.comparisons_pageable}, std::pair{"comparisons, pinned", &c.comparisons_pinned}}) {
        std::string line;
        for (const auto& r : *rules)
            line += r.below_bytes == std::numeric_limits<std::uint64_t>::max()
                        ? fmt::format(" {} from there up", preduce::name(r.chosen))
                        : fmt::format(" {} below {} bytes,", preduce::name(r.chosen), r.below_bytes);
        fmt::print("  {}:{}\n", what, line);
    }
    return 0;
}

} // namespace preduce_cli
