# Warnings for preduce's own targets. -Werror=unknown-pragmas: a misspelled
# `#pragma omp` otherwise compiles silently into a serial loop.
function(preduce_set_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Werror=unknown-pragmas>)
  elseif(MSVC)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:/W4>)
  endif()
endfunction()
