# Included by cmake/PreduceFindBackends.cmake: sets PREDUCE_FOUND and PREDUCE_HINT.
find_package(OpenMP COMPONENTS CXX QUIET)
set(PREDUCE_FOUND "${OpenMP_CXX_FOUND}")
set(PREDUCE_HINT "no OpenMP for ${CMAKE_CXX_COMPILER_ID}; g++ has it, clang needs libomp-dev")
