#include "preduce/detail/runtime/residence.hpp"

#include <dlfcn.h>
#include <link.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "preduce/errors.hpp"

namespace preduce::detail {

namespace {
// The CUDA driver API, looked up in a libcuda that is already loaded: no CUDA headers or
// link dependency, and no driver start-up cost for host-only processes.
// Values from cuda.h, stable ABI since CUDA 4.
// cuPointerGetAttributes (plural): for memory CUDA does not know it succeeds and reports
// memory type 0, where the singular form fails with CUDA_ERROR_INVALID_VALUE, an API
// error that compute-sanitizer and CUDA error tracers report on every host-backend call.
using cu_pointer_get_attributes_fn = int (*)(unsigned count, int* attributes, void** data, unsigned long long ptr);
constexpr int cu_success = 0;
constexpr int cu_pointer_attribute_memory_type = 2;  // CU_POINTER_ATTRIBUTE_MEMORY_TYPE
constexpr int cu_pointer_attribute_is_managed = 8;   // CU_POINTER_ATTRIBUTE_IS_MANAGED
constexpr unsigned cu_memorytype_host = 1;           // CU_MEMORYTYPE_HOST
constexpr unsigned cu_memorytype_device = 2;         // CU_MEMORYTYPE_DEVICE
constexpr unsigned cu_memorytype_array = 3;          // CU_MEMORYTYPE_ARRAY

std::atomic<cu_pointer_get_attributes_fn> cached_query{nullptr};
using cu_memcpy_fn = int (*)(unsigned long long dst, unsigned long long src, std::size_t bytes);
std::atomic<cu_memcpy_fn> cached_memcpy{nullptr};

// Path of the loaded libcuda.so*, if any. dl_iterate_phdr walks the in-memory list of
// loaded objects; dlopen(RTLD_NOLOAD) of a library that is not loaded searches the file
// system first, over a hundred times slower, too slow to repeat on every call
// (docs/front-end-costs.md).
int find_libcuda(dl_phdr_info* info, std::size_t, void* out) {
    const char* path = info->dlpi_name;
    if (path == nullptr) return 0;
    const char* slash = std::strrchr(path, '/');
    const char* base = slash != nullptr ? slash + 1 : path;
    if (std::strncmp(base, "libcuda.so", 10) != 0) return 0;
    *static_cast<const char**>(out) = path;
    return 1;
}

// How many objects the process has loaded so far (glibc's dlpi_adds, the same in every entry
// of the list): the walk stops at the first entry instead of reading them all.
// 0 where the C library does not report it.
int objects_loaded(dl_phdr_info* info, std::size_t size, void* out) {
    const bool reported = size >= offsetof(dl_phdr_info, dlpi_adds) + sizeof(info->dlpi_adds);
    *static_cast<unsigned long long*>(out) = reported ? info->dlpi_adds : 0;
    return 1;
}

// The objects_loaded count at which the last walk found no libcuda.
std::atomic<unsigned long long> searched_at{0};

cu_pointer_get_attributes_fn cuda_query() noexcept {
    if (auto f = cached_query.load(std::memory_order_acquire)) return f;
    // Not loaded yet: look again next time (the application may start CUDA later), but walk
    // the list only when something was loaded since the last walk that found nothing.
    unsigned long long loaded = 0;
    dl_iterate_phdr(objects_loaded, &loaded);
    if (loaded != 0 && loaded == searched_at.load(std::memory_order_relaxed)) return nullptr;
    const char* path = nullptr;
    dl_iterate_phdr(find_libcuda, &path);
    if (path == nullptr) {
        searched_at.store(loaded, std::memory_order_relaxed);
        return nullptr;
    }
    void* lib = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
    if (lib == nullptr) return nullptr;
    // The handle is kept: it pins libcuda, so the cached pointer stays valid.
    auto f = reinterpret_cast<cu_pointer_get_attributes_fn>(dlsym(lib, "cuPointerGetAttributes"));
    cached_memcpy.store(reinterpret_cast<cu_memcpy_fn>(dlsym(lib, "cuMemcpy")), std::memory_order_release);
    if (f != nullptr) cached_query.store(f, std::memory_order_release);
    return f;
}
} // namespace

memory_kind locate(const void* p) noexcept {
    const auto query = cuda_query();
    if (query == nullptr || p == nullptr) return memory_kind::host;
    const auto address = static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p));
    unsigned type = 0;
    unsigned managed = 0;
    int attributes[2] = {cu_pointer_attribute_memory_type, cu_pointer_attribute_is_managed};
    void* values[2] = {&type, &managed};
    if (query(2, attributes, values, address) != cu_success) return memory_kind::host;
    if (type == cu_memorytype_host) return memory_kind::pinned;
    if (type != cu_memorytype_device && type != cu_memorytype_array) return memory_kind::host;  // unknown to CUDA
    if (managed != 0) return memory_kind::managed;
    return memory_kind::device;
}

void copy_to_host(void* dst, const void* src, std::size_t bytes) {
    if (bytes == 0) return;
    if (locate(src) != memory_kind::device) {
        std::memcpy(dst, src, bytes);
        return;
    }
    const auto copy = cached_memcpy.load(std::memory_order_acquire);  // set by the locate() above
    const int status = copy == nullptr ? -1
                                       : copy(static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(dst)),
                                              static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(src)), bytes);
    if (status != cu_success)
        throw device_error("preduce: copying " + std::to_string(bytes) + " bytes of device memory to the host failed (CUDA driver error " +
                           std::to_string(status) + ")");
}

} // namespace preduce::detail
