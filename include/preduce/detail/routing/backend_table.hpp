#pragma once
// Every backend preduce knows, built or not, in a fixed order: one entry each. The enum
// (backend.hpp), the names, the "not built" message and the routing of the front end
// (src/frontend/) are all expanded from this list; which entries a build contains comes
// from CMake (PREDUCE_FOR_EACH_BUILT_BACKEND in config.hpp). A backend named here provides,
// in backends/<name>/, the same two headers as every other: preduce/<name>/compiled.hpp
// (the built-in reducers, compiled) and preduce/<name>/info.hpp (namespace
// preduce::<name>::info: usable(), unusable_reason(), detail(options), check_options(options),
// reads_device_memory).
//
//   X(name, what building it needs)
#define PREDUCE_FOR_EACH_BACKEND(X)                                                                   \
    X(seq, "nothing beyond a C++20 compiler")                                                         \
    X(openmp, "a compiler with OpenMP (g++ has it; clang needs libomp-dev)")                          \
    X(kokkos, "Kokkos >= 3.4 (Debian: libtrilinos-kokkos-dev, or -DKokkos_ROOT=...)")                 \
    X(cuda, "the CUDA toolkit (nvcc; -DCMAKE_CUDA_COMPILER=...)")
