# cmake -DSOURCE=<preduce> -DWORK=<dir> -DGENERATOR=... -DCXX=... [-DOPTIONS=a|b|c] -P shared_package.cmake
# (OPTIONS: configure options separated by |, so that a list value can hold semicolons)
# Builds preduce's shared libraries (BUILD_SHARED_LIBS=ON) from SOURCE, installs them under
# WORK/installed, then builds and runs the consumer project against that package, from an
# installed tree moved to another folder (the relative RPATH must still find every library).
foreach(v SOURCE WORK GENERATOR CXX)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "shared_package.cmake: -D${v}=... missing")
  endif()
endforeach()
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "shared_package.cmake: ${what} failed (${rc})")
  endif()
endfunction()
string(REPLACE "|" ";" OPTIONS "${OPTIONS}")
file(REMOVE_RECURSE "${WORK}")
run(configure "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${WORK}/build" -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX}"
    -DBUILD_SHARED_LIBS=ON -DPREDUCE_BUILD_TESTS=OFF -DPREDUCE_BUILD_BENCH=OFF -DPREDUCE_BUILD_TOOLS=OFF
    -DPREDUCE_INSTALL=ON ${OPTIONS})
run(build "${CMAKE_COMMAND}" --build "${WORK}/build")
run(install "${CMAKE_COMMAND}" --install "${WORK}/build" --prefix "${WORK}/staged")
file(RENAME "${WORK}/staged" "${WORK}/installed")
run(consumer "${CMAKE_CTEST_COMMAND}" --build-and-test "${CMAKE_CURRENT_LIST_DIR}/project" "${WORK}/consumer"
    --build-generator "${GENERATOR}" --build-options "-DCMAKE_PREFIX_PATH=${WORK}/installed" "-DCMAKE_CXX_COMPILER=${CXX}"
    "-DCONSUMER_EXPECT_SHARED=ON" --test-command "${CMAKE_CTEST_COMMAND}" --output-on-failure)
