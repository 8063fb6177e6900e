// backend::automatic (preduce/automatic.hpp): the calibration it reads, and the choice.
#include "preduce/automatic.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>

#if PREDUCE_HAVE_JSON
#include <nlohmann/json.hpp>
#endif

#include "preduce/detail/runtime/residence.hpp"
#include "preduce/errors.hpp"

namespace preduce {

namespace {

constexpr std::uint64_t rest = std::numeric_limits<std::uint64_t>::max();

// The default rules (automatic.hpp), for pageable and pinned memory alike: made once (which
// backends run does not change while the process runs).
const std::vector<calibration_rule>& default_rules() {
    static const std::vector<calibration_rule> rules =
        is_usable(backend::openmp) ? std::vector<calibration_rule>{{256, backend::seq}, {rest, backend::openmp}}
                                   : std::vector<calibration_rule>{{rest, backend::seq}};
    return rules;
}

calibration defaults(std::string why, std::string warning = "") {
    return {default_rules(), default_rules(), {}, {}, std::move(why), std::move(warning)};
}

std::string text_of_size(std::uint64_t bytes) {
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = static_cast<double>(bytes);
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        ++u;
    }
    std::ostringstream s;
    s.precision(v < 10 ? 2 : 3);
    s << v << ' ' << units[u];
    return s.str();
}

// Where the calibration file is looked for, and whether the caller named it ($PREDUCE_CALIBRATION).
struct file_to_read {
    std::string path;
    bool named;
};

file_to_read where_to_look() {
    if (const char* p = std::getenv("PREDUCE_CALIBRATION"); p != nullptr && *p != '\0') return {p, true};
    if (const char* p = std::getenv("XDG_CACHE_HOME"); p != nullptr && *p != '\0')
        return {std::string(p) + "/preduce/calibration.json", false};
    if (const char* p = std::getenv("HOME"); p != nullptr && *p != '\0')
        return {std::string(p) + "/.cache/preduce/calibration.json", false};
    return {"", false};
}

// The file's calibration, or the defaults with the reason. A file that exists but cannot be
// used, and a file named by $PREDUCE_CALIBRATION that does not exist, also give a warning;
// the per-user cache file's absence is the normal state before preduce --calibrate, and gives
// none.
calibration load() {
    const file_to_read file = where_to_look();
    if (file.path.empty()) return defaults("defaults (no $PREDUCE_CALIBRATION, $XDG_CACHE_HOME or $HOME to find a file)");
    std::error_code ec;
    if (!std::filesystem::exists(file.path, ec)) {
        const std::string at = "no calibration file at " + file.path;
        const std::string how = "; preduce --calibrate writes one";
        return defaults("defaults (" + at + how + ")", file.named ? at + " (named by $PREDUCE_CALIBRATION)" + how : "");
    }
    std::ifstream in(file.path);
    if (!in.is_open()) {
        const std::string why = "calibration file " + file.path + " cannot be opened";
        return defaults("defaults (" + why + ")", why);
    }
    std::stringstream text;
    text << in.rdbuf();
    try {
        return calibration_from_json(text.str(), file.path);
    } catch (const std::exception& e) {
        return defaults(std::string("defaults (") + e.what() + ")", e.what());
    }
}

// One range of bytes read, and the backend that runs calls reading that many from host
// memory: calls reading fewer than `below` bytes (and at least the range before's).
struct piece {
    std::uint64_t below;
    backend chosen;
    std::size_t rule;  // the calibration rule it serves (its index)
    bool stands_in;    // the default, in place of a rule whose backend cannot run here
};

// Whether the comparisons have rules of their own for this residency (a family that has none
// takes the sums').
bool own_rules(const calibration& c, operation_family family, bool pinned) {
    return family == operation_family::comparisons && !(pinned ? c.comparisons_pinned : c.comparisons_pageable).empty();
}

// The rules of one family of operations for one residency.
const std::vector<calibration_rule>& rules_for(const calibration& c, operation_family family, bool pinned) {
    if (own_rules(c, family, pinned)) return pinned ? c.comparisons_pinned : c.comparisons_pageable;
    return pinned ? c.pinned : c.pageable;
}

// A calibration as the choice reads it: its rules made into pieces once, when it is loaded, with
// a rule whose backend cannot run here replaced by the default rules over its range. So the
// choice on a call's path only compares the bytes with a few bounds and asks no backend
// whether it runs (which backends run does not change while the process runs).
struct in_use {
    calibration rules;
    std::vector<piece> pieces[2][2];  // [operation_family][pinned]
};

std::vector<piece> pieces_of(const std::vector<calibration_rule>& rules) {
    std::vector<piece> out;
    std::uint64_t from = 0;
    for (std::size_t i = 0; i < rules.size(); ++i) {
        const calibration_rule& r = rules[i];
        if (is_usable(r.chosen)) {
            out.push_back({r.below_bytes, r.chosen, i, false});
        } else {
            // Each default rule's range, cut to this rule's [from, below_bytes).
            std::uint64_t default_from = 0;
            for (const calibration_rule& d : default_rules()) {
                if (std::max(default_from, from) < std::min(d.below_bytes, r.below_bytes))
                    out.push_back({std::min(d.below_bytes, r.below_bytes), d.chosen, i, true});
                default_from = d.below_bytes;
            }
        }
        from = r.below_bytes;
    }
    return out;
}

// The calibration in use, read on first use. A reload publishes a new one and keeps the
// old alive (a call may still be reading it): reloads are rare, so the few kept are noise.
std::mutex lock;
std::atomic<const in_use*> loaded{nullptr};
std::vector<std::unique_ptr<const in_use>> kept;

[[gnu::noinline]] const in_use& load_now() {
    const std::lock_guard<std::mutex> guard(lock);
    if (const in_use* c = loaded.load(std::memory_order_relaxed)) return *c;
    calibration rules = load();
    if (!rules.warning.empty())
        std::fprintf(stderr, "preduce: warning: %s; backend::automatic uses its defaults\n", rules.warning.c_str());
    auto made = std::make_unique<in_use>(in_use{std::move(rules), {}});
    for (const operation_family family : {operation_family::sums, operation_family::comparisons})
        for (const bool pinned : {false, true})
            made->pieces[static_cast<int>(family)][pinned] = pieces_of(rules_for(made->rules, family, pinned));
    kept.push_back(std::move(made));
    loaded.store(kept.back().get(), std::memory_order_release);
    return *kept.back();
}

const in_use& current() {
    if (const in_use* c = loaded.load(std::memory_order_acquire)) [[likely]]
        return *c;
    return load_now();
}

// What automatic decides, without the words (route() needs only `chosen`).
struct decision {
    backend chosen;
    enum { device, options, managed, rule } why;
    operation_family family = operation_family::sums;
    bool pinned = false;
    const piece* by = nullptr;  // for a rule: the piece whose range holds the call's bytes
    const in_use* source = nullptr;
};

decision decide(const void* data, std::size_t bytes, operation_family family, const options& opts) {
    using detail::memory_kind;
    const memory_kind where = data != nullptr && bytes != 0 ? detail::locate(data) : memory_kind::host;
    if (where == memory_kind::device) [[unlikely]]
        return {backend::cuda, decision::device};
    if (opts.stream != nullptr || opts.gpus != 1) [[unlikely]]
        return {backend::cuda, decision::options};
    if (where == memory_kind::managed && is_usable(backend::cuda)) return {backend::cuda, decision::managed};
    const bool pinned = where == memory_kind::pinned;
    const in_use& c = current();
    const piece* p = c.pieces[static_cast<int>(family)][pinned].data();
    while (bytes >= p->below && p->below != rest) ++p;  // the last piece is below `rest`
    return {p->chosen, decision::rule, family, pinned, p, &c};
}

} // namespace

std::string calibration_path() { return where_to_look().path; }

calibration current_calibration() { return current().rules; }

void reload_calibration() {
    const std::lock_guard<std::mutex> guard(lock);
    loaded.store(nullptr, std::memory_order_release);
}

namespace detail {
automatic_route automatic_backend(const void* data, std::size_t bytes, operation_family family,
                                  const options& opts) {
    const decision d = decide(data, bytes, family, opts);
    return {d.chosen, d.why != decision::device};
}
} // namespace detail

automatic_choice choose_automatic(const void* data, std::size_t bytes, const options& opts) {
    return choose_automatic(data, bytes, operation_family::sums, opts);
}

automatic_choice choose_automatic(const void* data, std::size_t bytes, operation_family family,
                                  const options& opts) {
    const decision d = decide(data, bytes, family, opts);
    switch (d.why) {
    case decision::device: return {d.chosen, "CUDA device memory: only the GPU can read it"};
    case decision::options: return {d.chosen, "the options name a CUDA stream or several GPUs"};
    case decision::managed: return {d.chosen, "CUDA managed memory: the GPU reads it in place"};
    case decision::rule: break;
    }
    const std::vector<calibration_rule>& rules = rules_for(d.source->rules, d.family, d.pinned);
    const calibration_rule& rule = rules[d.by->rule];
    const std::uint64_t from = d.by->rule == 0 ? 0 : rules[d.by->rule - 1].below_bytes;
    const std::string range = rule.below_bytes == rest ? "from " + text_of_size(from) + " up"
                                                       : "for " + text_of_size(from) + " to " + text_of_size(rule.below_bytes);
    const std::string where =
        std::string(d.pinned ? "pinned" : "pageable") + " host memory, " + text_of_size(bytes) + " read: ";
    const std::string by =
        (own_rules(d.source->rules, d.family, d.pinned) ? "the comparisons' rules of " : "") + d.source->rules.source;
    if (d.by->stands_in)
        return {d.chosen, where + std::string(name(rule.chosen)) + " " + range + " by " + by +
                              ", which is not usable here (" + unusable_reason(rule.chosen) + "), so the default, " +
                              std::string(name(d.chosen))};
    return {d.chosen, where + std::string(name(d.chosen)) + " " + range + ", by " + by};
}

#if PREDUCE_HAVE_JSON
// The file holds the sums' rules under "pageable" and "pinned" (every operation's, in a file
// without the comparisons' own), and the comparisons' own, when they have them, under
// "comparisons": {"pageable": [...], "pinned": [...]}.
std::string calibration_to_json(const calibration& c, const std::string& measured) {
    nlohmann::ordered_json j;
    j["format"] = "preduce-calibration/1";
    const auto rules = [](const std::vector<calibration_rule>& list) {
        nlohmann::ordered_json a = nlohmann::ordered_json::array();
        for (const calibration_rule& r : list) {
            nlohmann::ordered_json e;
            e["below_bytes"] = r.below_bytes == rest ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.below_bytes);
            e["backend"] = std::string(name(r.chosen));
            a.push_back(e);
        }
        return a;
    };
    j["pageable"] = rules(c.pageable);
    j["pinned"] = rules(c.pinned);
    if (!c.comparisons_pageable.empty() || !c.comparisons_pinned.empty()) {
        j["comparisons"]["pageable"] = rules(c.comparisons_pageable.empty() ? c.pageable : c.comparisons_pageable);
        j["comparisons"]["pinned"] = rules(c.comparisons_pinned.empty() ? c.pinned : c.comparisons_pinned);
    }
    if (!measured.empty()) j["measured"] = nlohmann::ordered_json::parse(measured);
    return j.dump(2) + "\n";
}

calibration calibration_from_json(const std::string& text, const std::string& source) {
    const auto fail = [&](const std::string& what) -> calibration {
        throw invalid_argument("calibration file " + source + ": " + what);
    };
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        return fail(std::string("not JSON: ") + e.what());
    }
    if (!j.is_object() || j.value("format", "") != "preduce-calibration/1")
        return fail("not a preduce-calibration/1 file (format key)");
    // One list of rules, `where` naming it in what a failure says.
    const auto read_rules = [&](const nlohmann::json& list, const std::string& where) {
        std::vector<calibration_rule> out;
        if (!list.is_array() || list.empty()) fail(where + " is not a non-empty list of rules");
        std::uint64_t last = 0;
        for (const auto& r : list) {
            if (!r.is_object() || !r.contains("backend") || !r["backend"].is_string() || !r.contains("below_bytes"))
                fail(where + ": a rule needs backend and below_bytes");
            backend b{};
            try {
                b = parse_backend(r["backend"].get<std::string>());
            } catch (const invalid_argument& e) {
                fail(where + ": " + e.what());
            }
            if (b == backend::automatic) fail(where + ": a rule cannot name auto");
            const auto& below = r["below_bytes"];
            std::uint64_t limit = rest;
            if (!below.is_null()) {
                if (!below.is_number_unsigned()) fail(where + ": below_bytes is not a byte count or null");
                limit = below.get<std::uint64_t>();
            }
            if (limit <= last) fail(where + ": below_bytes must increase from rule to rule");
            out.push_back({limit, b});
            last = limit;
        }
        if (out.back().below_bytes != rest) fail(where + ": the last rule needs below_bytes null");
        return out;
    };
    calibration c;
    c.source = "calibration file " + source;
    c.pageable = read_rules(j["pageable"], "pageable");
    c.pinned = read_rules(j["pinned"], "pinned");
    if (j.contains("comparisons")) {
        nlohmann::json own = j["comparisons"];  // a copy: a missing key reads as null below
        if (!own.is_object()) fail("comparisons is not an object of pageable and pinned rules");
        c.comparisons_pageable = read_rules(own["pageable"], "comparisons.pageable");
        c.comparisons_pinned = read_rules(own["pinned"], "comparisons.pinned");
    }
    return c;
}
#else
std::string calibration_to_json(const calibration&, const std::string&) {
    throw backend_unavailable("this preduce was built without nlohmann-json: calibration files are not supported");
}
calibration calibration_from_json(const std::string&, const std::string&) {
    throw backend_unavailable("this preduce was built without nlohmann-json, so calibration files are not read");
}
#endif

} // namespace preduce
