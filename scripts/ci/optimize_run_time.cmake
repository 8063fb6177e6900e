# Injected into the sanitizer build (scripts/ci/sanitize.sh, CMAKE_PROJECT_INCLUDE): that
# build compiles at -O0, a third of -O1's compile time, and this gives -O1 back (the later
# -O on a compile line wins) to the code where the suite spends its run time: the CPU
# backends' libraries and the host kernels they share, the shared test bodies whose oracles
# check every op on millions of elements (at -O0 under the sanitizers they took most of the
# suite's time), and what the fuzzers run (the reduce body, the CLI's readers): inputs a
# second. -O1 is the
# optimisation the sanitizers' documentation suggests. Deferred to the end of the top-level
# CMakeLists.txt, when the targets exist.
function(preduce_ci_optimize_run_time)
  foreach(target IN ITEMS preduce_host_kernels preduce_seq preduce_openmp preduce_kokkos
                          preduce_backend_cases test_reliability_boundaries
                          test_custom_seq test_custom_openmp test_custom_kokkos
                          preduce_fuzz_reduce_body preduce_cli_readers)
    if(TARGET ${target})
      set_property(TARGET ${target} APPEND PROPERTY COMPILE_OPTIONS -O1)
    endif()
  endforeach()
endfunction()
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL preduce_ci_optimize_run_time)
