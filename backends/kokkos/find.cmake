# Included by cmake/PreduceFindBackends.cmake: sets PREDUCE_FOUND and PREDUCE_HINT.
include(PreduceKokkos)  # find logic and the fix for Debian's Kokkos include directory
preduce_find_kokkos(PREDUCE_FOUND)
set(PREDUCE_HINT "no Kokkos >= ${PREDUCE_KOKKOS_MIN_VERSION}; install libtrilinos-kokkos-dev (Debian) or pass -DKokkos_ROOT=<Kokkos install prefix>")
