#!/usr/bin/env bash
# Builds and installs a Kokkos prefix from a source tarball, for testing preduce's kokkos
# backend against Kokkos 4 (the README's configuration uses Debian's Kokkos 3.4.1):
#
#   scripts/kokkos/build.sh TARBALL PREFIX [openmp|threads|cuda]
#
#   openmp   Kokkos_ENABLE_OPENMP + SERIAL (the default)
#   threads  Kokkos_ENABLE_THREADS + SERIAL
#   cuda     Kokkos_ENABLE_CUDA for Hopper (sm_90) + SERIAL, nvcc from $CUDA_HOME (default
#            /usr/local/cuda) through the sources' nvcc_wrapper, which is then the C++
#            compiler of anything built against the prefix (PREFIX/bin/nvcc_wrapper).
#            Sources from before Kokkos' CUDA 13 support (4.7.1) get scripts/kokkos/cuda13.patch
#            first: the two runtime calls whose signatures CUDA 13 changed, and nvcc_wrapper's
#            default architecture (sm_70, which CUDA 13 dropped) set to sm_90.
#
# The C++ compiler is CMake's choice ($CXX when set, as scripts/ci/sanitize.sh sets it to
# clang++); a prefix is reused only when it was built by the same $CXX.
#
# Built without Kokkos 4's deprecated API (Kokkos_ENABLE_DEPRECATED_CODE_4=OFF, which Kokkos
# 5 removes), so that code built against the prefix needs none of it.
#
# TARBALL is a Kokkos source archive whose top folder is kokkos/ (for example
# ../shared/third_party/kokkos-4.6.99-28848df.tar.gz, see --find-tarball below). The
# build folder is PREFIX.build, removed after the install; an existing PREFIX whose
# stamp file names the same tarball and space is kept as it is. Prints the prefix last.
#
#   scripts/kokkos/build.sh --find-tarball
#
# prints the path of the Kokkos snapshot among the project's third-party sources
# ($PREDUCE_THIRD_PARTY, then ../shared/third_party beside the repository, then
# /work/shared/third_party), or fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

find_tarball() {
  local d
  for d in "${PREDUCE_THIRD_PARTY:-}" "$repo/../shared/third_party" /work/shared/third_party; do
    [ -n "$d" ] || continue
    for f in "$d"/kokkos-*.tar.gz; do
      if [ -f "$f" ]; then echo "$f"; return 0; fi
    done
  done
  echo "kokkos/build.sh: no kokkos-*.tar.gz in \$PREDUCE_THIRD_PARTY, $repo/../shared/third_party or /work/shared/third_party" >&2
  return 1
}

if [ "${1:-}" = --find-tarball ]; then
  find_tarball
  exit
fi
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 TARBALL PREFIX [openmp|threads|cuda]  |  $0 --find-tarball" >&2
  exit 2
fi
tarball=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
prefix=$2
space=${3:-openmp}
[ -f "$tarball" ] || { echo "kokkos/build.sh: no such tarball: $tarball" >&2; exit 2; }
mkdir -p "$prefix"
prefix=$(cd "$prefix" && pwd)

stamp="$prefix/.preduce-kokkos-build"
want="$(basename "$tarball") $(stat -c %s "$tarball") $space ${CXX:-c++} no-deprecated-4"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "kokkos/build.sh: $prefix already holds $want" >&2
  echo "$prefix"
  exit 0
fi

options=(-DKokkos_ENABLE_SERIAL=ON -DCMAKE_CXX_STANDARD=20 -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF
         -DKokkos_ENABLE_DEPRECATED_CODE_4=OFF)
case "$space" in
  openmp)  options+=(-DKokkos_ENABLE_OPENMP=ON) ;;
  threads) options+=(-DKokkos_ENABLE_THREADS=ON) ;;
  cuda)    options+=(-DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON)
           export PATH="${CUDA_HOME:-/usr/local/cuda}/bin:$PATH" ;;
  *) echo "kokkos/build.sh: unknown space '$space' (openmp, threads or cuda)" >&2; exit 2 ;;
esac

work="$prefix.build"
rm -rf "$work"
mkdir -p "$work"
tar -xzf "$tarball" -C "$work"
src="$work/kokkos"
[ -f "$src/CMakeLists.txt" ] || { echo "kokkos/build.sh: $tarball has no kokkos/CMakeLists.txt" >&2; exit 2; }
if [ "$space" = cuda ]; then
  if grep -q "cudaGraphAddDependencies(graph, from, to, numDependencies)" "$src/core/src/Cuda/Kokkos_Cuda_Instance.hpp"; then
    patch -s -d "$work" -p0 <"$here/cuda13.patch"
  fi
  # The wrapper as the prefix will hold it, so that the installed configuration names a
  # compiler that outlives this build folder.
  mkdir -p "$prefix/bin"
  cp "$src/bin/nvcc_wrapper" "$prefix/bin/nvcc_wrapper"
  options+=(-DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper")
fi
cmake -S "$src" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
  "${options[@]}" >"$work/configure.log" 2>&1 || { cat "$work/configure.log" >&2; exit 1; }
cmake --build "$work/build" >"$work/build.log" 2>&1 || { tail -50 "$work/build.log" >&2; exit 1; }
cmake --install "$work/build" >/dev/null
rm -rf "$work"
echo "$want" >"$stamp"
echo "kokkos/build.sh: installed Kokkos ($space) from $(basename "$tarball") into $prefix" >&2
echo "$prefix"
