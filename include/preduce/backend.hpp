#pragma once
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "preduce/detail/routing/backend_table.hpp"
#include "preduce/detail/routing/linked_libraries.hpp"  // generated: the linked backends' library objects, kept
#include "preduce/options.hpp"

namespace preduce {

// The backends of the table, then `automatic`: not a backend of its own, but the front
// end's choice of one per call (preduce/automatic.hpp; name "auto").
#define PREDUCE_BACKEND_ENUMERATOR(name, needs) name,
enum class backend { PREDUCE_FOR_EACH_BACKEND(PREDUCE_BACKEND_ENUMERATOR) automatic };
#undef PREDUCE_BACKEND_ENUMERATOR

// Every backend preduce knows, built or not, in a fixed order (automatic is not one).
#define PREDUCE_BACKEND_VALUE(name, needs) backend::name,
inline constexpr std::array all_backends{PREDUCE_FOR_EACH_BACKEND(PREDUCE_BACKEND_VALUE)};
#undef PREDUCE_BACKEND_VALUE

// Short stable name ("seq", "openmp", "kokkos", "cuda", "auto"), the one parse_backend() accepts.
std::string_view name(backend b) noexcept;

// Name with run-time detail for reports, e.g. "openmp(2 threads)" or "kokkos(Serial)";
// for automatic, where its rules come from, e.g. "auto(defaults: ...)".
std::string describe(backend b);

// The same, for a run with these options (e.g. "openmp(4 threads)" when options::threads is 4).
std::string describe(backend b, const options& opts);

// Inverse of name(); throws preduce::invalid_argument listing the valid names.
backend parse_backend(std::string_view text);

// Compiled into this build (a compiled backend may still fail to run: see is_usable).
bool is_built(backend b) noexcept;

// Built, and its library linked into this program (CMake: the backend's target
// preduce::<name>, or preduce::preduce for every backend; see detail/routing/linking.hpp).
bool is_linked(backend b) noexcept;

// Linked and able to run here (e.g. the CUDA backend also needs a visible GPU).
bool is_usable(backend b) noexcept;

// Why is_usable(b) is false (not built, not linked, no GPU, ...), in words; empty when it
// is true.
std::string unusable_reason(backend b);

// The backends reduce() can run on this machine, in all_backends order (automatic, which
// is always usable, is not listed: it runs one of these).
std::vector<backend> available_backends();

} // namespace preduce
