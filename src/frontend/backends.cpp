// What the front end says about the backends: names, descriptions, which are built and
// usable. Expanded from the backend table (detail/backend_table.hpp) and the list of built
// backends (config.hpp): no backend is named in this file.
#include "preduce/backend.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "built_backends.hpp"
#include "preduce/automatic.hpp"
#include "preduce/config.hpp"
#include "preduce/errors.hpp"

namespace preduce {

std::string_view name(backend b) noexcept {
    switch (b) {
#define PREDUCE_NAME_CASE(id, needs) \
    case backend::id: return #id;
        PREDUCE_FOR_EACH_BACKEND(PREDUCE_NAME_CASE)
#undef PREDUCE_NAME_CASE
    case backend::automatic: return "auto";
    }
    return "unknown";
}

std::string describe(backend b) { return describe(b, options{}); }

std::string describe(backend b, const options& opts) {
    std::string s(name(b));
    if (b == backend::automatic) return s + "(" + current_calibration().source + ")";
    std::string detail;
    switch (b) {
#define PREDUCE_DETAIL_CASE(id)                 \
    case backend::id: detail = id::info::detail(opts); break;
        PREDUCE_FOR_EACH_BUILT_BACKEND(PREDUCE_DETAIL_CASE)
#undef PREDUCE_DETAIL_CASE
    default: break;
    }
    return detail.empty() ? s : s + "(" + detail + ")";
}

backend parse_backend(std::string_view text) {
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (backend b : all_backends)
        if (lower == name(b)) return b;
    if (lower == name(backend::automatic)) return backend::automatic;
    std::string valid;
    for (backend b : all_backends) valid += (valid.empty() ? "" : ", ") + std::string(name(b));
    valid += ", " + std::string(name(backend::automatic));
    throw invalid_argument("unknown backend '" + std::string(text) + "'; valid names: " + valid);
}

bool is_built(backend b) noexcept {
    switch (b) {
#define PREDUCE_BUILT_CASE(id) \
    case backend::id: return true;
        PREDUCE_FOR_EACH_BUILT_BACKEND(PREDUCE_BUILT_CASE)
#undef PREDUCE_BUILT_CASE
    case backend::automatic: return true;
    default: return false;
    }
}

bool is_usable(backend b) noexcept {
    switch (b) {
#define PREDUCE_USABLE_CASE(id) \
    case backend::id: return id::info::usable();
        PREDUCE_FOR_EACH_BUILT_BACKEND(PREDUCE_USABLE_CASE)
#undef PREDUCE_USABLE_CASE
    case backend::automatic: return true;
    default: return false;
    }
}

std::string unusable_reason(backend b) {
    switch (b) {
#define PREDUCE_REASON_CASE(id) \
    case backend::id: return id::info::unusable_reason();
        PREDUCE_FOR_EACH_BUILT_BACKEND(PREDUCE_REASON_CASE)
#undef PREDUCE_REASON_CASE
    case backend::automatic: return "";
    default: return "backend '" + std::string(name(b)) + "' is not built into this preduce";
    }
}

std::vector<backend> available_backends() {
    std::vector<backend> out;
    for (backend b : all_backends)
        if (is_usable(b)) out.push_back(b);
    return out;
}

} // namespace preduce
