# PREDUCE_SANITIZE (declared in PreduceOptions.cmake): a comma-separated sanitizer list
# (e.g. address,undefined) applied to every target of this build. Empty: no sanitizers.
#
# Included before any target is created, so directory-wide compile and link options reach
# every library, test, tool and fuzzer below. -fno-sanitize-recover=all: UBSan's default is
# to print and carry on, which would let a test pass with a report in its log.
# -fno-omit-frame-pointer: ASan's fast unwinder needs frame pointers for usable stacks.
# Only C++ is instrumented: nvcc does not take -fsanitize (CUDA code has compute-sanitizer,
# scripts/device/run.sh), and sanitizers cannot see device memory anyway.
#
# fuzzer-no-link may be listed too (clang): coverage instrumentation for libFuzzer in every
# target, the fuzzer executables adding -fsanitize=fuzzer themselves (fuzz/CMakeLists.txt).

if(PREDUCE_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    message(FATAL_ERROR "PREDUCE_SANITIZE=${PREDUCE_SANITIZE} needs GCC or Clang, not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  string(REPLACE "," ";" _preduce_sanitizers "${PREDUCE_SANITIZE}")
  foreach(s IN LISTS _preduce_sanitizers)
    if(NOT s MATCHES "^[a-z][a-z0-9-]*$")
      message(FATAL_ERROR "PREDUCE_SANITIZE=${PREDUCE_SANITIZE}: '${s}' is not a sanitizer name; "
                          "use a comma-separated list such as address,undefined")
    endif()
  endforeach()
  set(_preduce_sanitize_flags -fsanitize=${PREDUCE_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # Instrumented loops cannot always be vectorised as `omp simd` asks (host_simd/lane_fold.hpp):
    # clang warns on every one of them, which would bury real warnings.
    list(APPEND _preduce_sanitize_flags -Wno-pass-failed)
  endif()
  add_compile_options("$<$<COMPILE_LANGUAGE:CXX>:${_preduce_sanitize_flags}>")
  add_link_options("$<$<LINK_LANGUAGE:CXX>:-fsanitize=${PREDUCE_SANITIZE}>")

  # A program linking the installed (static, instrumented) libraries needs the sanitizer
  # runtimes too, or its link fails on __asan_*/__ubsan_* symbols: the exported targets
  # carry the link flag (the tests/consumer find_package test is such a program).
  list(FILTER _preduce_sanitizers EXCLUDE REGEX "^fuzzer")
  if(_preduce_sanitizers)
    string(REPLACE ";" "," _preduce_sanitize_export "${_preduce_sanitizers}")
    function(_preduce_sanitize_export flag)
      if(TARGET preduce_headers)
        target_link_options(preduce_headers INTERFACE "$<INSTALL_INTERFACE:${flag}>")
      endif()
    endfunction()
    cmake_language(DEFER DIRECTORY "${PROJECT_SOURCE_DIR}" CALL _preduce_sanitize_export
                   "-fsanitize=${_preduce_sanitize_export}")
  endif()
  message(STATUS "preduce: sanitizers ${PREDUCE_SANITIZE} on every C++ target")
endif()
