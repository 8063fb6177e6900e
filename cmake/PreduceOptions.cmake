# Every option of the build, in one place. The build/install switches default to on when
# preduce is the top-level project and off under add_subdirectory (PROJECT_IS_TOP_LEVEL),
# so a parent project gets the libraries and nothing else unless it asks.

# preduce_backend_option(NAME DOC): a tri-state cache option PREDUCE_ENABLE_<NAME>.
#   AUTO  use it when its dependency is found (default)
#   ON    configure fails, naming what to install, when it is not
#   OFF   never build it
function(preduce_backend_option name doc)
  set(PREDUCE_ENABLE_${name} AUTO CACHE STRING "${doc}: AUTO, ON or OFF")
  set_property(CACHE PREDUCE_ENABLE_${name} PROPERTY STRINGS AUTO ON OFF)
  string(TOUPPER "${PREDUCE_ENABLE_${name}}" value)
  if(value STREQUAL "TRUE" OR value STREQUAL "YES" OR value STREQUAL "1")
    set(value ON)
  elseif(value STREQUAL "FALSE" OR value STREQUAL "NO" OR value STREQUAL "0")
    set(value OFF)
  endif()
  if(NOT value MATCHES "^(AUTO|ON|OFF)$")
    message(FATAL_ERROR "PREDUCE_ENABLE_${name}=${PREDUCE_ENABLE_${name}}: use AUTO, ON or OFF")
  endif()
  set(PREDUCE_ENABLE_${name}_VALUE ${value} PARENT_SCOPE)
endfunction()

# The backends, in order, read from the one table the C++ side expands too
# (include/preduce/detail/routing/backend_table.hpp). seq is always built; every other backend has
# a PREDUCE_ENABLE_<NAME> option and its search in backends/<name>/find.cmake.
set(PREDUCE_KNOWN_BACKENDS "")
file(READ "${PROJECT_SOURCE_DIR}/include/preduce/detail/routing/backend_table.hpp" _preduce_table)
string(REGEX MATCHALL "\n *X\\([a-z0-9_]+," _preduce_table_entries "${_preduce_table}")
foreach(entry IN LISTS _preduce_table_entries)
  string(REGEX REPLACE "^\n *X\\(([a-z0-9_]+),$" "\\1" b "${entry}")
  list(APPEND PREDUCE_KNOWN_BACKENDS ${b})
  if(NOT b STREQUAL "seq")
    string(TOUPPER "${b}" upper)
    preduce_backend_option(${upper} "${b} backend")
  endif()
endforeach()
preduce_backend_option(MPI "MPI layer")
# The Python module (python/): AUTO builds it where pybind11, the Python headers and NumPy are
# found for PREDUCE_PYTHON.
preduce_backend_option(PYTHON "Python module")
set(PREDUCE_PYTHON "" CACHE FILEPATH
    "Python interpreter the module is built for (default: Debian's /usr/bin/python3 where it has NumPy, else python3 on PATH)")

option(PREDUCE_BUILD_TESTS "Build the test suite" ${PROJECT_IS_TOP_LEVEL})
option(PREDUCE_BUILD_BENCH "Build the Google Benchmark suite" ${PROJECT_IS_TOP_LEVEL})
option(PREDUCE_BUILD_TOOLS "Build the preduce command-line program" ${PROJECT_IS_TOP_LEVEL})
option(PREDUCE_INSTALL "Generate the install/export rules" ${PROJECT_IS_TOP_LEVEL})
# The test programs and the benchmark that only a GPU can run (the nvcc-compiled ones in
# tests/cuda, tests/multigpu, tests/custom and tests/reliability, and bench/gpu): by default
# built where nvidia-smi lists a GPU, since elsewhere they would only compile for minutes
# and then skip. ON builds them anyway, as scripts/device/prepare.sh does for the GPU machine.
# The CUDA backend itself is built wherever nvcc is found.
set(preduce_gpu_visible OFF)
execute_process(COMMAND nvidia-smi -L OUTPUT_VARIABLE preduce_gpu_list RESULT_VARIABLE preduce_gpu_rc ERROR_QUIET)
if(preduce_gpu_rc EQUAL 0 AND preduce_gpu_list MATCHES "GPU [0-9]")
  set(preduce_gpu_visible ON)
endif()
option(PREDUCE_BUILD_GPU_TESTS "Build the CUDA test programs and GPU benchmark (default: where a GPU is visible)"
  ${preduce_gpu_visible})
# libFuzzer targets (clang++): the reduce body against every CPU backend, and the CLI's
# .npy and text readers (the latter with PREDUCE_BUILD_TOOLS). See fuzz/README.md.
option(PREDUCE_BUILD_FUZZ "Build the libFuzzer targets (Clang only)" OFF)
# A comma-separated sanitizer list (e.g. address,undefined) for every target of this
# build (cmake/PreduceSanitizers.cmake). Empty: no sanitizers.
set(PREDUCE_SANITIZE "" CACHE STRING "Sanitizers for every target, e.g. address,undefined")

# preduce_backend_result(NAME FOUND HINT): records the outcome of a backend search.
function(preduce_backend_result name found hint)
  if(found)
    set(PREDUCE_HAVE_${name} 1 PARENT_SCOPE)
  else()
    set(PREDUCE_HAVE_${name} 0 PARENT_SCOPE)
    if(PREDUCE_ENABLE_${name}_VALUE STREQUAL "ON")
      message(FATAL_ERROR "PREDUCE_ENABLE_${name}=ON but it cannot be built: ${hint}")
    elseif(PREDUCE_ENABLE_${name}_VALUE STREQUAL "AUTO")
      message(STATUS "preduce: ${name} not found, backend skipped (${hint})")
    endif()
  endif()
endfunction()
