#include "config.hpp"

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string_view>

namespace preduce_bench {

namespace {
config g_config;

int parse_int(std::string_view text, const char* what) {
    const std::string s(text);
    char* end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 10);
    if (s.empty() || end != s.c_str() + s.size())
        throw std::invalid_argument(std::string("preduce_bench: ") + what + ": '" + s + "' is not an integer");
    return static_cast<int>(v);
}

void parse_sizes(config& c, std::string_view text) {
    const auto c1 = text.find(':');
    if (c1 == std::string_view::npos)
        throw std::invalid_argument("preduce_bench: --sizes wants MIN:MAX[:STEP] (log2 of element counts), got '" +
                                    std::string(text) + "'");
    c.min_log2 = parse_int(text.substr(0, c1), "--sizes MIN");
    const auto rest = text.substr(c1 + 1);
    const auto c2 = rest.find(':');
    c.max_log2 = parse_int(rest.substr(0, c2), "--sizes MAX");
    c.step_log2 = c2 == std::string_view::npos ? 2 : parse_int(rest.substr(c2 + 1), "--sizes STEP");
    if (c.min_log2 < 0 || c.max_log2 > 40 || c.min_log2 > c.max_log2 || c.step_log2 < 1)
        throw std::invalid_argument("preduce_bench: --sizes wants 0 <= MIN <= MAX <= 40 and STEP >= 1, got '" +
                                    std::string(text) + "'");
}

void parse_buffer(config& c, std::string_view text) {
    const int mib = parse_int(text, "--buffer_mib");
    if (mib < 1) throw std::invalid_argument("preduce_bench: --buffer_mib must be >= 1");
    c.buffer_bytes = static_cast<std::size_t>(mib) << 20;
}

bool truthy(const char* v) { return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0; }
} // namespace

std::vector<std::size_t> config::sizes() const {
    std::vector<std::size_t> out;
    for (int k = min_log2; k <= max_log2; k += step_log2) out.push_back(std::size_t{1} << k);
    return out;
}

std::string config::describe() const {
    return "sizes 2^" + std::to_string(min_log2) + "..2^" + std::to_string(max_log2) + " step 2^" +
           std::to_string(step_log2) + "; " +
           (in_cache ? std::string("in-cache (same n elements every iteration)")
                     : "from memory (start offset rotates through a " + std::to_string(buffer_bytes >> 20) +
                           " MiB buffer per type)") +
           (hugepages ? "; MADV_HUGEPAGE" : "; ordinary pages");
}

config parse_config(int& argc, char** argv) {
    config c;
    if (const char* e = std::getenv("PREDUCE_BENCH_SIZES")) parse_sizes(c, e);
    if (const char* e = std::getenv("PREDUCE_BENCH_BUFFER_MIB")) parse_buffer(c, e);
    c.in_cache = truthy(std::getenv("PREDUCE_BENCH_IN_CACHE"));
    c.hugepages = truthy(std::getenv("PREDUCE_BENCH_HUGEPAGES"));

    int out = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        auto value_of = [&](std::string_view flag) -> std::string_view {
            return a.substr(flag.size());
        };
        if (a.starts_with("--sizes=")) parse_sizes(c, value_of("--sizes="));
        else if (a.starts_with("--buffer_mib=")) parse_buffer(c, value_of("--buffer_mib="));
        else if (a == "--in_cache") c.in_cache = true;
        else if (a == "--hugepages") c.hugepages = true;
        else argv[out++] = argv[i];
    }
    argc = out;
    argv[argc] = nullptr;
    return c;
}

const config& current() { return g_config; }
void set_current(const config& c) { g_config = c; }

} // namespace preduce_bench
