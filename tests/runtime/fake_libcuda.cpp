// A stand-in for the CUDA driver library, for residence_cases.cpp: a shared library whose file
// name starts with libcuda.so, as detail::locate looks for, and whose cuPointerGetAttributes
// reports fake_device_memory as device memory and everything else as memory CUDA does not
// know. It never touches a GPU.
#include <cstddef>
#include <cstdint>

extern "C" {

float fake_device_memory[64];

int cuPointerGetAttributes(unsigned count, int* attributes, void** data, unsigned long long ptr) {
    const auto first = reinterpret_cast<std::uintptr_t>(&fake_device_memory[0]);
    const bool device = ptr >= first && ptr < first + sizeof(fake_device_memory);
    for (unsigned i = 0; i < count; ++i) {
        unsigned* out = static_cast<unsigned*>(data[i]);
        if (attributes[i] == 2) *out = device ? 2u : 0u;  // CU_POINTER_ATTRIBUTE_MEMORY_TYPE: device, or unknown
        else *out = 0;                                     // CU_POINTER_ATTRIBUTE_IS_MANAGED and the rest
    }
    return 0;  // CUDA_SUCCESS
}

int cuMemcpy(unsigned long long, unsigned long long, std::size_t) { return 1; }  // never asked here

} // extern "C"
