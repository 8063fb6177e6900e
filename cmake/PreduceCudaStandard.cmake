# preduce's headers need C++20 in every language that reads them, so preduce::headers asks
# for the compile features cxx_std_20 and cuda_std_20: CMake then adds the dialect flag
# to a consumer's CUDA sources as it does to its C++ sources, and a consumer's own
# CUDA_STANDARD can still raise it.
#
# CMake before 3.27 knows no C++20 flag for nvcc, and would reject cuda_std_20 outright.
# preduce_cuda_std_20_known() tells such a CMake what nvcc >= 12 accepts (-std=c++20), for
# the directory it is called in and below, only when CUDA is enabled and CMake does not
# know it already: nothing a project set itself is changed. Called by preduce's build
# before enable_language(CUDA) and by preduceConfig.cmake for consumers. A macro: the
# variables must land in the caller's scope.
macro(preduce_cuda_std_20_known)
  if(NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  endif()
  if(CMAKE_CUDA_COMPILER_LOADED AND CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA"
     AND CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0
     AND NOT "cuda_std_20" IN_LIST CMAKE_CUDA_COMPILE_FEATURES)
    list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
    set(CMAKE_CUDA20_COMPILE_FEATURES cuda_std_20)
  endif()
endmacro()
