# Warnings and floating-point rules for preduce's own targets. -Werror=unknown-pragmas: a
# misspelled `#pragma omp` otherwise compiles silently into a serial loop.
# -ffp-contract=off: GCC's GNU modes fuse a * b + c into an FMA where the target has one
# (-march=native, say), which would make precision::deterministic's sums of squares and
# dot products round differently from the GPU's (detail/fixed_order/order.hpp).
function(preduce_set_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Werror=unknown-pragmas -ffp-contract=off>)
    # GCC 12/13 report std::string concatenation at -O3 as overlapping memcpy (GCC bug 105329).
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 14)
      target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict>)
    endif()
  elseif(MSVC)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:/W4>)
  endif()
endfunction()
