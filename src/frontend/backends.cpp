// What the front end says about the backends: names, descriptions, which are built, linked
// and usable. Expanded from the backend table (detail/routing/backend_table.hpp) and the list of
// built backends (config.hpp): no backend is named in this file.
#include "preduce/backend.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "preduce/automatic.hpp"
#include "preduce/config.hpp"
#include "preduce/errors.hpp"
#include "weak_backends.hpp"

namespace preduce {

namespace detail {
const backend_library* linked_library(backend b) noexcept {
    switch (b) {
#define PREDUCE_LIBRARY_CASE(id) \
    case backend::id: return &id::library;
        PREDUCE_FOR_EACH_BUILT_BACKEND(PREDUCE_LIBRARY_CASE)
#undef PREDUCE_LIBRARY_CASE
    default: return nullptr;
    }
}
} // namespace detail

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
    if (!is_built(b)) return s;
    const detail::backend_library* library = detail::linked_library(b);
    if (library == nullptr) return s + "(not linked)";
    const std::string detail = library->detail(opts);
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

bool is_linked(backend b) noexcept { return b == backend::automatic || detail::linked_library(b) != nullptr; }

bool is_usable(backend b) noexcept {
    if (b == backend::automatic) return true;
    const detail::backend_library* library = detail::linked_library(b);
    return library != nullptr && library->usable();
}

std::string unusable_reason(backend b) {
    if (b == backend::automatic) return "";
    if (!is_built(b)) return "backend '" + std::string(name(b)) + "' is not built into this preduce";
    const detail::backend_library* library = detail::linked_library(b);
    if (library == nullptr)
        return "backend '" + std::string(name(b)) + "' is built into this preduce but not linked into this program; "
               "link its library (CMake: target preduce::" + std::string(name(b)) + ", or preduce::preduce for every "
               "backend)";
    return library->unusable_reason();
}

std::vector<backend> available_backends() {
    std::vector<backend> out;
    for (backend b : all_backends)
        if (is_usable(b)) out.push_back(b);
    return out;
}

} // namespace preduce
