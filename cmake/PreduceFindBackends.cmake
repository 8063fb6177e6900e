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
set(PREDUCE_HAVE_CUDA 0)
set(PREDUCE_HAVE_MPI 0)
