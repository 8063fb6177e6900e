#!/usr/bin/env bash
# The kokkos backend against Kokkos 4 on parallel host spaces (not run by .ci/run, whose
# sanitizer step covers the OpenMP space with the default threads). For each of OpenMP and
# Threads: a Kokkos prefix built from the project's third-party snapshot
# (scripts/kokkos/build.sh), preduce configured against it (CPU only: seq and kokkos), and
# the kokkos backend's share of the suite run with 1, 2 and 4 Kokkos threads (the Python
# module off: only these targets are built, and the consumer tests install what is built): the shared
# body and its concurrency and deterministic-bits cases (test_kokkos), the custom ops body,
# Kokkos' lifecycle, MPI with kokkos ranks; then, once, the consumer tests (an installed
# preduce found by a program of its own, which finds the same Kokkos). About 7 minutes a
# space on 2 cores.
#   scripts/ci/kokkos4.sh [work-dir]      (default build-kokkos4)
set -euo pipefail
cd "$(dirname "$0")/../.."
work=${1:-build-kokkos4}
mkdir -p "$work"
work=$(cd "$work" && pwd)

tarball=$(scripts/kokkos/build.sh --find-tarball)
targets=(test_kokkos test_custom_kokkos test_reliability_kokkos_lifecycle test_mpi_kokkos)
status=0
for space in openmp threads; do
  start=$(date +%s)
  prefix=$(scripts/kokkos/build.sh "$tarball" "$work/kokkos-$space" "$space")
  build="$work/preduce-$space"
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$prefix" \
    -DPREDUCE_ENABLE_KOKKOS=ON -DPREDUCE_ENABLE_CUDA=OFF -DPREDUCE_ENABLE_OPENMP=OFF \
    -DPREDUCE_BUILD_TESTS=ON -DPREDUCE_BUILD_BENCH=OFF -DPREDUCE_BUILD_TOOLS=OFF -DPREDUCE_ENABLE_PYTHON=OFF \
    >"$build.configure.log"
  # The configuration must have found this Kokkos, not the system's.
  grep -E "Kokkos 4\.[0-9.]+ \(.*$(tr '[:lower:]' '[:upper:]' <<<"$space").*\)" "$build.configure.log" ||
    { echo "kokkos4: $space: preduce did not configure against $prefix" >&2; cat "$build.configure.log" >&2; exit 1; }
  cmake --build "$build" -j2 --target "${targets[@]}"
  built=$(date +%s)
  # Every kokkos test with 2 threads; with 1 and 4, all but the two slowest kinds (2^24+1
  # elements, and the shared body under mpirun: 95 s of the 117 a run takes here), whose
  # code paths the other cases take at smaller sizes.
  # With 1 thread, two test processes at a time fill the 2 cores.
  for threads in 2 1 4; do
    skip=()
    [ "$threads" = 2 ] || skip=(-E '2\^24\+1 elements|mpi\.kokkos\.np[0-9]+\.shared')
    jobs=1
    [ "$threads" = 1 ] && jobs=2
    echo "kokkos4: $space, KOKKOS_NUM_THREADS=$threads"
    KOKKOS_NUM_THREADS=$threads OMP_NUM_THREADS=$threads OMP_WAIT_POLICY=passive \
      ctest --test-dir "$build" --output-on-failure -j$jobs -L kokkos "${skip[@]}" || status=1
  done
  ctest --test-dir "$build" --output-on-failure -j2 -L consumer -E add_subdirectory || status=1
  echo "kokkos4: $space: Kokkos and preduce built in $((built - start)) s, tests ran in $(($(date +%s) - built)) s"
done
exit $status
