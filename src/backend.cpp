#include "preduce/backend.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "preduce/config.hpp"
#include "preduce/detail/backend_info.hpp"
#include "preduce/errors.hpp"

#if PREDUCE_HAVE_OPENMP
#include "preduce/openmp/info.hpp"
#endif
#if PREDUCE_HAVE_KOKKOS
#include "preduce/kokkos/info.hpp"
#endif
#if PREDUCE_HAVE_CUDA
#include "preduce/cuda/info.hpp"
#endif

namespace preduce {

std::string_view name(backend b) noexcept {
    switch (b) {
    case backend::seq: return "seq";
    case backend::openmp: return "openmp";
    case backend::kokkos: return "kokkos";
    case backend::cuda: return "cuda";
    }
    return "unknown";
}

std::string describe(backend b) { return describe(b, options{}); }

std::string describe(backend b, [[maybe_unused]] const options& opts) {
    std::string s(name(b));
    switch (b) {
#if PREDUCE_HAVE_OPENMP
    case backend::openmp:
        return s + "(" + std::to_string(opts.threads > 0 ? opts.threads : openmp::default_threads()) + " threads)";
#endif
#if PREDUCE_HAVE_KOKKOS
    case backend::kokkos: return s + "(" + kokkos::execution_space_name() + ")";
#endif
#if PREDUCE_HAVE_CUDA
    case backend::cuda: {
        const std::string device = cuda::device_name();
        return s + "(" + (device.empty() ? "no device" : device) + ")";
    }
#endif
    default: return s;
    }
}

backend parse_backend(std::string_view text) {
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (backend b : all_backends)
        if (lower == name(b)) return b;
    std::string valid;
    for (backend b : all_backends) valid += (valid.empty() ? "" : ", ") + std::string(name(b));
    throw invalid_argument("unknown backend '" + std::string(text) + "'; valid names: " + valid);
}

bool is_built(backend b) noexcept {
    switch (b) {
    case backend::seq: return true;
    case backend::openmp: return PREDUCE_HAVE_OPENMP;
    case backend::kokkos: return PREDUCE_HAVE_KOKKOS;
    case backend::cuda: return PREDUCE_HAVE_CUDA;
    }
    return false;
}

bool is_usable(backend b) noexcept {
#if PREDUCE_HAVE_CUDA
    if (b == backend::cuda) return cuda::device_available();
#endif
    return is_built(b);
}

std::string unusable_reason(backend b) {
    if (is_usable(b)) return {};
    if (!is_built(b)) return "backend '" + std::string(name(b)) + "' is not built into this preduce";
#if PREDUCE_HAVE_CUDA
    if (b == backend::cuda) return cuda::unavailable_reason();
#endif
    return "backend '" + std::string(name(b)) + "' cannot run here";
}

std::vector<backend> available_backends() {
    std::vector<backend> out;
    for (backend b : all_backends)
        if (is_usable(b)) out.push_back(b);
    return out;
}

namespace detail {
[[noreturn]] void throw_not_built(backend b) {
    if (std::find(all_backends.begin(), all_backends.end(), b) == all_backends.end())
        throw invalid_argument("backend value " + std::to_string(static_cast<int>(b)) + " is not a preduce::backend");
    const std::string n(name(b));
    std::string how;
    switch (b) {
    case backend::openmp: how = "a compiler with OpenMP (g++ has it; clang needs libomp-dev)"; break;
    case backend::kokkos: how = "Kokkos >= 3.4 (Debian: libtrilinos-kokkos-dev, or -DKokkos_ROOT=...)"; break;
    case backend::cuda: how = "the CUDA toolkit (nvcc; -DCMAKE_CUDA_COMPILER=...)"; break;
    default: how = "nothing extra"; break;
    }
    std::string upper = n;
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    throw backend_unavailable("backend '" + n + "' is not built into this preduce; reconfigure with -DPREDUCE_ENABLE_" +
                              upper + "=ON, which needs " + how);
}
} // namespace detail

} // namespace preduce
