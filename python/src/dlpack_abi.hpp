#pragma once
// DLPack's ABI (dlpack.h, version 0.8; the struct layouts are fixed by the standard): what
// the module reads from other libraries' tensors and gives them of its own.
#include <cstdint>

namespace preduce_python {

struct dl_device {
    int32_t device_type;  // 1 CPU, 2 CUDA, 3 CUDA host (pinned), 13 CUDA managed
    int32_t device_id;
};
struct dl_dtype {
    uint8_t code;  // 0 int, 1 uint, 2 float, 4 bfloat
    uint8_t bits;
    uint16_t lanes;
};
struct dl_tensor {
    void* data;
    dl_device device;
    int32_t ndim;
    dl_dtype dtype;
    int64_t* shape;
    int64_t* strides;  // in elements; null: C-contiguous
    uint64_t byte_offset;
};
struct dl_managed_tensor {
    dl_tensor dl;
    void* manager_ctx;
    void (*deleter)(dl_managed_tensor*);
};

} // namespace preduce_python
