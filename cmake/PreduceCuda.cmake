# Finds nvcc and enables CUDA for the CUDA backend. Result: PREDUCE_CUDA_FOUND.
# Point at another toolkit with -DCMAKE_CUDA_COMPILER=/path/to/nvcc; choose the GPUs
# with -DCMAKE_CUDA_ARCHITECTURES (default 90: sm_90 code plus PTX the driver can
# compile for newer GPUs).
include(CheckLanguage)
set(PREDUCE_CUDA_FOUND FALSE)
if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS /usr/local/cuda/bin/nvcc)
  set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc CACHE FILEPATH "CUDA compiler")
endif()
check_language(CUDA)
if(CMAKE_CUDA_COMPILER)
  # A parent project that builds preduce with add_subdirectory keeps its own choice (or
  # CMake's default) for every CUDA target, preduce's included.
  if(PROJECT_IS_TOP_LEVEL AND NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90 CACHE STRING "GPU architectures of the CUDA backend")
  endif()
  # nvcc's -O is the optimisation of the host code of .cu files only (cicc and ptxas optimise
  # the kernels whatever it says). preduce's is launch, staging and workspace logic, which
  # runs as fast at -O2 and compiles in four fifths of -O3's time; its own builds take -O2
  # (a parent project keeps its choice, and -DCMAKE_CUDA_FLAGS_RELEASE overrides it).
  if(PROJECT_IS_TOP_LEVEL AND NOT DEFINED CMAKE_CUDA_FLAGS_RELEASE)
    set(CMAKE_CUDA_FLAGS_RELEASE "-O2 -DNDEBUG" CACHE STRING "CUDA flags of Release builds")
  endif()
  if(NOT DEFINED CMAKE_CUDA_HOST_COMPILER AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set(CMAKE_CUDA_HOST_COMPILER "${CMAKE_CXX_COMPILER}" CACHE FILEPATH "Host compiler for nvcc")
  endif()
  include(PreduceCudaStandard)
  preduce_cuda_std_20_known()  # before enable_language: CMake records the known features then
  enable_language(CUDA)
  preduce_cuda_std_20_known()  # a parent project may have enabled CUDA before us
  find_package(CUDAToolkit QUIET)
  if(CUDAToolkit_FOUND)
    set(PREDUCE_CUDA_FOUND TRUE)
  endif()
  # The CUDA runtime the CUDA backend and preduce's programs link: the static one for static
  # libraries (a machine without CUDA runs the binaries; the backend then reports itself
  # unusable), the shared one with BUILD_SHARED_LIBS, so that preduce and the program that
  # loads it share one runtime (its streams, devices and error state).
  if(BUILD_SHARED_LIBS)
    set(PREDUCE_CUDART CUDA::cudart)
  else()
    set(PREDUCE_CUDART CUDA::cudart_static)
  endif()
endif()
