# Kokkos for the kokkos backend. Including this file only defines commands, so it is also
# installed next to preduceConfig.cmake and included there: consumers of an installed
# preduce get the same repair of Debian's Kokkos target as the build did.
#
#   preduce_find_kokkos(<found-var>)
#       find_package(Kokkos CONFIG) (any version >= 3.4: Debian's 3.4.1, a user's 4.x or 5.x
#       through -DKokkos_ROOT=...), then preduce_kokkos_fix_include_dirs(). A function: it
#       hands back only the variables the build reads (Kokkos_VERSION, Kokkos_DEVICES, ...).
#
#   preduce_kokkos_fix_include_dirs()
#       Debian's libtrilinos-kokkos-dev (a TriBITS-generated config) creates Kokkos::kokkos
#       with INTERFACE_INCLUDE_DIRECTORIES <prefix>/include, the prefix computed four levels
#       above its config file (/usr/lib/include on Debian 12), while the headers live in
#       /usr/include/trilinos (the config's own Kokkos_INCLUDE_DIRS says so). When no include
#       directory reachable from Kokkos::kokkos holds Kokkos_Core.hpp, point the target at
#       the directory that does, as a SYSTEM directory (Kokkos 3.4 headers warn under C++20:
#       deprecated enum arithmetic and volatile). Other installs (Kokkos own CMake config,
#       add_subdirectory builds) are left untouched.

set(PREDUCE_KOKKOS_MIN_VERSION 3.4)

# Include directories of <target> and of every target it links, transitively.
function(_preduce_kokkos_collect_include_dirs target out_var)
  set(seen "")
  set(queue "${target}")
  set(dirs "")
  while(queue)
    list(POP_FRONT queue t)
    if(NOT TARGET "${t}" OR t IN_LIST seen)
      continue()
    endif()
    list(APPEND seen "${t}")
    get_target_property(aliased "${t}" ALIASED_TARGET)
    if(aliased)
      list(APPEND queue "${aliased}")
      continue()
    endif()
    get_target_property(d "${t}" INTERFACE_INCLUDE_DIRECTORIES)
    if(d)
      list(APPEND dirs ${d})
    endif()
    get_target_property(libs "${t}" INTERFACE_LINK_LIBRARIES)
    if(libs)
      list(APPEND queue ${libs})
    endif()
  endwhile()
  set(${out_var} "${dirs}" PARENT_SCOPE)
endfunction()

function(preduce_kokkos_fix_include_dirs)
  if(NOT TARGET Kokkos::kokkos)
    return()
  endif()
  get_target_property(imported Kokkos::kokkos IMPORTED)
  if(NOT imported)
    return()  # Kokkos built in this project (add_subdirectory): its own targets are right
  endif()
  _preduce_kokkos_collect_include_dirs(Kokkos::kokkos dirs)
  foreach(d IN LISTS dirs)
    if(d MATCHES "\\$<")
      return()  # generator expressions: not the Debian layout, and not ours to evaluate
    endif()
    if(EXISTS "${d}/Kokkos_Core.hpp")
      return()  # the target already finds its headers
    endif()
  endforeach()

  # Where the headers are: the config's own Kokkos_INCLUDE_DIRS (Debian sets it right),
  # then <dir>/trilinos and <dir>/kokkos below each directory the target names.
  set(candidates ${Kokkos_INCLUDE_DIRS})
  foreach(d IN LISTS dirs)
    list(APPEND candidates "${d}/trilinos" "${d}/kokkos")
  endforeach()
  set(found "")
  foreach(c IN LISTS candidates)
    if(EXISTS "${c}/Kokkos_Core.hpp")
      get_filename_component(found "${c}" REALPATH)
      break()
    endif()
  endforeach()
  if(NOT found)
    message(WARNING "preduce: Kokkos::kokkos names include directories '${dirs}', none of which holds "
                    "Kokkos_Core.hpp, and none was found nearby; pass -DKokkos_ROOT=<prefix of a Kokkos install>")
    return()
  endif()
  # Replace rather than append: the directory Debian names (/usr/lib/include) holds no Kokkos.
  set_target_properties(Kokkos::kokkos PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${found}"
    INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${found}")
  if(NOT PREDUCE_KOKKOS_FIX_REPORTED)
    message(STATUS "preduce: Kokkos::kokkos named include directories '${dirs}' without Kokkos_Core.hpp; using ${found}")
    set(PREDUCE_KOKKOS_FIX_REPORTED TRUE CACHE INTERNAL "")
  endif()
endfunction()

function(preduce_find_kokkos found_var)
  set(${found_var} FALSE PARENT_SCOPE)
  # Kokkos' config (3.x and 4.x alike) forces CMAKE_CXX_EXTENSIONS OFF into the cache, for
  # every project of the build, with a warning, unless the variable is already OFF. Here it
  # is OFF for the search only, in this function's scope: neither preduce's directory nor a
  # parent project's sees it, and the cache is left alone. preduce's own targets are ISO C++
  # through their CXX_EXTENSIONS property (preduce_set_warnings).
  set(CMAKE_CXX_EXTENSIONS OFF)
  # No version in the call: Kokkos' version files accept only the same major version, and
  # 3.4 .. 5.x must all be found. The minimum is checked below instead.
  find_package(Kokkos CONFIG QUIET)
  if(Kokkos_FOUND AND TARGET Kokkos::kokkos)
    if(Kokkos_VERSION VERSION_LESS PREDUCE_KOKKOS_MIN_VERSION)
      message(STATUS "preduce: Kokkos ${Kokkos_VERSION} at ${Kokkos_DIR} is older than ${PREDUCE_KOKKOS_MIN_VERSION}")
    else()
      preduce_kokkos_fix_include_dirs()
      set(${found_var} TRUE PARENT_SCOPE)
      message(STATUS "preduce: Kokkos ${Kokkos_VERSION} (${Kokkos_DEVICES}) at ${Kokkos_DIR}")
    endif()
  endif()
  # What the rest of the build reads of Kokkos' config (the imported targets are visible
  # anyway: a function does not make a directory scope).
  foreach(v Kokkos_FOUND Kokkos_VERSION Kokkos_DEVICES Kokkos_ENABLE_CUDA Kokkos_INCLUDE_DIRS)
    set(${v} "${${v}}" PARENT_SCOPE)
  endforeach()
endfunction()
