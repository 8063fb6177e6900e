# install(EXPORT) so that find_package(preduce CONFIG) gives preduce::preduce (the front end
# with every backend), preduce::frontend, one target per backend (preduce::seq,
# preduce::openmp, ...), and preduce::mpi when built; the backends are components
# (preduceConfig.cmake.in).
include(CMakePackageConfigHelpers)

set(PREDUCE_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/preduce")
set(preduce_targets preduce preduce_frontend preduce_headers preduce_runtime preduce_host_simd preduce_host_kernels)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/backends/host_simd/include/" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
foreach(b IN LISTS PREDUCE_BACKENDS)
  list(APPEND preduce_targets preduce_${b})
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/backends/${b}/include/" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
endforeach()

if(TARGET preduce_mpi)
  list(APPEND preduce_targets preduce_mpi)
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/mpi/include/" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
endif()

install(TARGETS ${preduce_targets} EXPORT preduceTargets
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
  PATTERN "*.in" EXCLUDE)
install(FILES "${PROJECT_BINARY_DIR}/include/preduce/config.hpp" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/preduce")
install(FILES "${PROJECT_BINARY_DIR}/include/preduce/detail/routing/linked_libraries.hpp"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}/preduce/detail/routing")
install(EXPORT preduceTargets NAMESPACE preduce:: DESTINATION "${PREDUCE_CMAKE_DIR}")

if(BUILD_SHARED_LIBS)
  set(PREDUCE_SHARED TRUE)
  set(PREDUCE_LIBRARY_KIND "shared")
else()
  set(PREDUCE_SHARED FALSE)
  set(PREDUCE_LIBRARY_KIND "static")
endif()
configure_package_config_file(cmake/preduceConfig.cmake.in "${PROJECT_BINARY_DIR}/preduceConfig.cmake"
  INSTALL_DESTINATION "${PREDUCE_CMAKE_DIR}")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/preduceConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/preduceConfig.cmake" "${PROJECT_BINARY_DIR}/preduceConfigVersion.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/PreduceCudaStandard.cmake" DESTINATION "${PREDUCE_CMAKE_DIR}")
