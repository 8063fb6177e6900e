# Finds each backend's toolchain. Result: PREDUCE_HAVE_<X> (0/1) for config.hpp and
# PREDUCE_BACKENDS, the backend folders to build, always starting with seq.
set(PREDUCE_BACKENDS seq)

set(PREDUCE_HAVE_OPENMP 0)
if(NOT PREDUCE_ENABLE_OPENMP_VALUE STREQUAL "OFF")
  find_package(OpenMP COMPONENTS CXX QUIET)
  preduce_backend_result(OPENMP "${OpenMP_CXX_FOUND}"
    "no OpenMP for ${CMAKE_CXX_COMPILER_ID}; g++ has it, clang needs libomp-dev")
  if(PREDUCE_HAVE_OPENMP)
    list(APPEND PREDUCE_BACKENDS openmp)
  endif()
endif()

set(PREDUCE_HAVE_KOKKOS 0)
if(NOT PREDUCE_ENABLE_KOKKOS_VALUE STREQUAL "OFF")
  include(PreduceKokkos)  # find logic and the fix for Debian's Kokkos include directory
  preduce_find_kokkos(preduce_kokkos_found)
  preduce_backend_result(KOKKOS "${preduce_kokkos_found}"
    "no Kokkos >= ${PREDUCE_KOKKOS_MIN_VERSION}; install libtrilinos-kokkos-dev (Debian) or pass -DKokkos_ROOT=<Kokkos install prefix>")
  if(PREDUCE_HAVE_KOKKOS)
    list(APPEND PREDUCE_BACKENDS kokkos)
  endif()
endif()

set(PREDUCE_HAVE_CUDA 0)
if(NOT PREDUCE_ENABLE_CUDA_VALUE STREQUAL "OFF")
  include(PreduceCuda)  # a macro-free include: enable_language(CUDA) must run in this scope
  preduce_backend_result(CUDA "${PREDUCE_CUDA_FOUND}"
    "no CUDA toolkit (nvcc) found; install it or pass -DCMAKE_CUDA_COMPILER=/path/to/nvcc")
  if(PREDUCE_HAVE_CUDA)
    list(APPEND PREDUCE_BACKENDS cuda)
  endif()
endif()

# MPI is a layer over the backends (preduce::mpi, folder mpi/), not a backend itself.
set(PREDUCE_HAVE_MPI 0)
if(NOT PREDUCE_ENABLE_MPI_VALUE STREQUAL "OFF")
  find_package(MPI COMPONENTS CXX QUIET)
  preduce_backend_result(MPI "${MPI_CXX_FOUND}" "no MPI found; install libopenmpi-dev openmpi-bin (Debian)")
endif()
