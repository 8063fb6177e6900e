// The checks route_of.hpp's templates share (routing.hpp). Expanded from the backend table:
// no backend is named here.
#include "routing.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "preduce/config.hpp"
#include "preduce/detail/routing/backend_table.hpp"
#include "preduce/detail/runtime/residence.hpp"
#include "preduce/errors.hpp"

namespace preduce::detail {

void throw_not_built(backend b) {
    if (std::find(all_backends.begin(), all_backends.end(), b) == all_backends.end())
        throw invalid_argument("backend value " + std::to_string(static_cast<int>(b)) + " is not a preduce::backend");
    const std::string n(name(b));
    std::string upper = n;
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    std::string needs;
    switch (b) {
#define PREDUCE_NEEDS_CASE(id, what) \
    case backend::id: needs = what; break;
        PREDUCE_FOR_EACH_BACKEND(PREDUCE_NEEDS_CASE)
#undef PREDUCE_NEEDS_CASE
    case backend::automatic: break;  // resolved before any backend is asked for
    }
    throw backend_unavailable("backend '" + n + "' is not built into this preduce; reconfigure with -DPREDUCE_ENABLE_" +
                              upper + "=ON, which needs " + needs);
}

void throw_not_linked(backend b) { throw backend_unavailable(unusable_reason(b)); }

void require_usable(backend b, const backend_library& library) {
    if (!library.usable())
        throw backend_unavailable("backend '" + std::string(name(b)) + "' is built but cannot run here: " +
                                  library.unusable_reason() + "; pick another backend");
}

// One driver query per array (residence.hpp).
void refuse_device_memory(backend b, const void* p, std::size_t n, const char* what) {
    if (n != 0 && locate(p) == memory_kind::device)
        throw invalid_argument(std::string("preduce::reduce: ") + what + " is GPU device memory, which the '" +
                               std::string(name(b)) + "' backend cannot reach; use backend::cuda or copy it to the host");
}

void throw_host_out_of_memory(const char* call, backend b, std::size_t count, const char* what, const char* advice) {
    throw out_of_memory(std::string(call) + "(" + std::string(name(b)) + "): out of host memory for the workspace of " +
                        std::to_string(count) + " " + what + "; " + advice);
}

} // namespace preduce::detail
