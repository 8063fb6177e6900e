# Injected into the sanitizer build (scripts/ci/sanitize.sh, CMAKE_PROJECT_INCLUDE): that
# build compiles at -O0, a third of -O1's compile time for the tests and the CLI, and this
# gives the CPU backends' libraries, where the suite spends its run time, -O1 back (the
# later -O on a compile line wins). Deferred to the end of the top-level CMakeLists.txt,
# when the targets exist.
function(preduce_ci_optimize_backends)
  foreach(target IN ITEMS preduce_seq preduce_openmp preduce_kokkos)
    if(TARGET ${target})
      set_property(TARGET ${target} APPEND PROPERTY COMPILE_OPTIONS -O1)
    endif()
  endforeach()
endfunction()
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL preduce_ci_optimize_backends)
