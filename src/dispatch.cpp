#include "preduce/detail/dispatch.hpp"
#include "preduce/detail/residence.hpp"

#include <cstdint>
#include <limits>
#include <new>
#include <string>

#include "preduce/config.hpp"
#include "preduce/detail/backend_info.hpp"
#include "preduce/errors.hpp"
#include "preduce/seq/compiled.hpp"
#if PREDUCE_HAVE_OPENMP
#include "preduce/openmp/compiled.hpp"
#endif
#if PREDUCE_HAVE_KOKKOS
#include "preduce/kokkos/compiled.hpp"
#endif
#if PREDUCE_HAVE_CUDA
#include "preduce/cuda/compiled.hpp"
#include "preduce/cuda/info.hpp"
#endif

namespace preduce::detail {

void check_input(const void* data, std::size_t n, std::size_t element_size) {
    if (n == 0) return;
    if (data == nullptr)
        throw invalid_argument("preduce::reduce: data is null but n = " + std::to_string(n) +
                               "; pass a valid pointer, or n = 0 for an empty input");
    if (reinterpret_cast<std::uintptr_t>(data) % element_size != 0)
        throw invalid_argument("preduce::reduce: data pointer is not aligned to its element type (" +
                               std::to_string(element_size) + " bytes)");
    if (n > std::numeric_limits<std::size_t>::max() / element_size)
        throw invalid_argument("preduce::reduce: n = " + std::to_string(n) + " elements exceeds the address space");
}

namespace {
// Host backends would crash reading GPU memory; the CUDA backend needs a GPU. The Kokkos
// backend checks for itself: device memory is valid input to a CUDA-enabled Kokkos.
void check_residence(backend b, const void* data, std::size_t n) {
    if (b == backend::cuda) {
#if PREDUCE_HAVE_CUDA
        if (!cuda::device_available())
            throw backend_unavailable("backend 'cuda' is built but cannot run here: " + cuda::unavailable_reason() +
                                      "; run on a machine with an NVIDIA GPU and driver, or pick another backend");
#endif
    } else if (b != backend::kokkos && n != 0 && locate(data) == memory_kind::device) {
        throw invalid_argument("preduce::reduce: data is GPU device memory, which the '" + std::string(name(b)) +
                               "' backend cannot read; use backend::cuda or copy it to the host");
    }
}

template <class R>
void check_source(backend b, const source_t<R>& data, std::size_t n) {
    if constexpr (is_zip_source_v<source_t<R>>) {
        check_residence(b, data.first, n);
        check_residence(b, data.second, n);
    } else {
        check_residence(b, data, n);
    }
}

// More threads than this is a mistake, not a tuning choice (no machine has that many
// hardware threads), and libgomp does not fail politely: on this 2-core box 100000
// threads crashed with SIGSEGV and INT_MAX exited the process from inside the runtime.
constexpr int max_threads = 4096;

// Options are checked for every backend, used or not, so a bad value is caught before it
// reaches the one backend that would act on it.
void check_options(const options& opts) {
    if (opts.threads < 0 || opts.threads > max_threads)
        throw invalid_argument("preduce::reduce: options::threads = " + std::to_string(opts.threads) +
                               "; use 0 (the backend's default) or a count from 1 to " + std::to_string(max_threads));
    if (opts.gpus < 0)
        throw invalid_argument("preduce::reduce: options::gpus = " + std::to_string(opts.gpus) +
                               "; use 0 (every visible GPU) or a count of GPUs >= 1");
    switch (opts.precision) {
    case precision::fast:
    case precision::deterministic:
    case precision::compensated: return;
    }
    throw invalid_argument("preduce::reduce: options::precision = " + std::to_string(static_cast<int>(opts.precision)) +
                           " is not a preduce::precision; use fast, deterministic or compensated");
}

template <class R>
typename R::result_type route(backend b, source_t<R> data, std::size_t n, const R& reducer, const options& opts) {
    check_options(opts);
    check_source<R>(b, data, n);
    // Host backends allocate workspace in proportion to n (the fixed order's block values);
    // running out of host memory is reported like running out of GPU memory.
    try {
        switch (b) {
        case backend::seq: return seq::compiled::run(data, n, reducer, opts);
#if PREDUCE_HAVE_OPENMP
        case backend::openmp: return openmp::compiled::run(data, n, reducer, opts);
#endif
#if PREDUCE_HAVE_KOKKOS
        case backend::kokkos: return kokkos::compiled::run(data, n, reducer, opts);
#endif
#if PREDUCE_HAVE_CUDA
        case backend::cuda: return cuda::compiled::run(data, n, reducer, opts);
#endif
        default: break;
        }
    } catch (const std::bad_alloc&) {
        throw out_of_memory("preduce::reduce(" + std::string(name(b)) + "): out of host memory for the workspace of " +
                            std::to_string(n) + " elements; free memory or reduce a smaller input");
    }
    throw_not_built(b);
}
} // namespace

#define PREDUCE_DEFINE_DISPATCH(R)                                                                    \
    typename R::result_type dispatch(backend b, source_t<R> data, std::size_t n, const R& reducer,    \
                                     const options& opts) {                                           \
        return route<R>(b, data, n, reducer, opts);                                                   \
    }
PREDUCE_FOR_EACH_BUILTIN_REDUCER(PREDUCE_DEFINE_DISPATCH)

} // namespace preduce::detail
