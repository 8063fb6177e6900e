#pragma once
// Reducers are shared by host and device backends: mark them callable from both
// when a device compiler reads this header.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define PREDUCE_HD __host__ __device__
#else
#define PREDUCE_HD
#endif
