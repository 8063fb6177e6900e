# Finds each backend's toolchain, in the order of the backend table: backends/<name>/find.cmake
# (included in this scope, so variables a package's config sets stay visible) sets
# PREDUCE_FOUND and PREDUCE_HINT (what to install when it is missing). Result:
# PREDUCE_HAVE_<NAME> (0/1) and PREDUCE_BACKENDS, the backend folders to build (seq first,
# always), plus what config.hpp.in needs (PREDUCE_HAVE_DEFINES, PREDUCE_BUILT_BACKEND_LIST,
# PREDUCE_LINKS_DEFAULTS).
set(PREDUCE_BACKENDS "")
set(PREDUCE_HAVE_DEFINES "")
foreach(b IN LISTS PREDUCE_KNOWN_BACKENDS)
  if(b STREQUAL "seq")
    list(APPEND PREDUCE_BACKENDS seq)
    continue()
  endif()
  string(TOUPPER "${b}" upper)
  set(PREDUCE_HAVE_${upper} 0)
  if(NOT PREDUCE_ENABLE_${upper}_VALUE STREQUAL "OFF")
    set(PREDUCE_FOUND FALSE)
    set(PREDUCE_HINT "")
    include("${PROJECT_SOURCE_DIR}/backends/${b}/find.cmake")
    preduce_backend_result(${upper} "${PREDUCE_FOUND}" "${PREDUCE_HINT}")
    if(PREDUCE_HAVE_${upper})
      list(APPEND PREDUCE_BACKENDS ${b})
    endif()
  endif()
  string(APPEND PREDUCE_HAVE_DEFINES "#define PREDUCE_HAVE_${upper} ${PREDUCE_HAVE_${upper}}\n")
endforeach()

# MPI is a layer over the backends (preduce::mpi, folder mpi/), not a backend itself.
set(PREDUCE_HAVE_MPI 0)
if(NOT PREDUCE_ENABLE_MPI_VALUE STREQUAL "OFF")
  find_package(MPI COMPONENTS CXX QUIET)
  preduce_backend_result(MPI "${MPI_CXX_FOUND}" "no MPI found; install libopenmpi-dev openmpi-bin (Debian)")
endif()
string(APPEND PREDUCE_HAVE_DEFINES "#define PREDUCE_HAVE_MPI ${PREDUCE_HAVE_MPI}")

set(PREDUCE_BUILT_BACKEND_LIST "")
set(PREDUCE_LINKS_DEFAULTS "")
foreach(b IN LISTS PREDUCE_BACKENDS)
  string(APPEND PREDUCE_BUILT_BACKEND_LIST "X(${b}) ")
  string(APPEND PREDUCE_LINKS_DEFAULTS "#ifndef PREDUCE_LINKS_${b}\n#define PREDUCE_LINKS_${b} 0\n#endif\n")
endforeach()
