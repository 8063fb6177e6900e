# Warnings and compile rules for preduce's own targets (never a consumer's):
#  - -Werror=unknown-pragmas: a misspelled `#pragma omp` otherwise compiles silently into a
#    serial loop.
#  - -ffp-contract=off: preduce's compiled code rounds every operation as written, so the
#    fast paths of the CPU backends agree with each other as closely as the orders allow.
#    The fixed order's bits do not depend on it: they hold in any consumer's build too
#    (detail/algorithm/fixed_order/order.hpp, launder_row).
#  - ISO C++ (CXX_EXTENSIONS OFF): the dialect the code is written in; consumers keep theirs.
function(preduce_set_warnings target)
  set_target_properties(${target} PROPERTIES CXX_EXTENSIONS OFF)
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
