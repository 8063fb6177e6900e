// Does a Kokkos::View inside a functor reach device code intact? A functor holding a raw
// pointer, an unmanaged View and a number is built on the host and passed by value to a
// kernel, which reports what it finds: sizes, the member after the View, and the View's
// data() and extent. Build against a CUDA-enabled Kokkos prefix and run on a GPU:
//   PREFIX/bin/nvcc_wrapper -std=c++20 -O2 -arch=sm_90 -isystem PREFIX/include -x cu \
//     scripts/kokkos/view_layout.cpp -o view_layout -LPREFIX/lib -lkokkoscore -ldl -lcuda
// Exit status 0 when the device sees what the host built.
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>

using view_t = Kokkos::View<float*, Kokkos::CudaSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
struct functor {
    const float* src;
    view_t out;
    std::size_t after;
};

__global__ void report(functor f, std::uintptr_t* r) {
    r[0] = sizeof(view_t);
    r[1] = sizeof(functor);
    r[2] = offsetof(functor, after);
    r[3] = reinterpret_cast<std::uintptr_t>(f.src);
    r[4] = reinterpret_cast<std::uintptr_t>(f.out.data());
    r[5] = f.out.extent(0);
    r[6] = f.after;
}

int main(int argc, char** argv) {
    Kokkos::ScopeGuard kokkos(argc, argv);
    const functor f{reinterpret_cast<const float*>(0x1000), view_t(reinterpret_cast<float*>(0x2000), 10), 77};
    const std::uintptr_t want[7] = {sizeof(view_t), sizeof(functor), offsetof(functor, after), 0x1000, 0x2000, 10, 77};
    std::uintptr_t* d = nullptr;
    cudaMalloc(&d, sizeof want);
    report<<<1, 1>>>(f, d);
    std::uintptr_t got[7] = {};
    const cudaError_t e = cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost);
    const char* what[7] = {"sizeof(View)", "sizeof(functor)", "offsetof(after)", "src", "out.data()", "out.extent(0)", "after"};
    int wrong = 0;
    for (int i = 0; i < 7; ++i) {
        std::printf("view_layout: %-16s host 0x%zx device 0x%zx%s\n", what[i], static_cast<std::size_t>(want[i]),
                    static_cast<std::size_t>(got[i]), want[i] == got[i] ? "" : "  DIFFERS");
        wrong += want[i] != got[i];
    }
    std::printf("view_layout: %s; %d of 7 differ\n", cudaGetErrorString(e), wrong);
    cudaFree(d);
    return e == cudaSuccess && wrong == 0 ? 0 : 1;
}
