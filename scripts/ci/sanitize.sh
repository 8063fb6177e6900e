#!/usr/bin/env bash
# CI: the CPU-only build under AddressSanitizer (with LeakSanitizer) and
# UndefinedBehaviorSanitizer, clang++, and the test suite without the `large` label. Its kokkos
# backend is built against Kokkos 4 with the OpenMP space, from the project's third-party
# snapshot (scripts/kokkos/build.sh, with clang++ too, so that one OpenMP runtime serves the
# process), so the same run checks the kokkos backend on a parallel Kokkos 4 space (the
# README's build uses Debian's Kokkos 3.4.1, Serial only). The same build holds the
# libFuzzer targets, with libFuzzer's coverage instrumentation in every target
# (fuzzer-no-link): scripts/ci/fuzz.sh then fuzzes in it without building the libraries a
# third time.
# Passes only when every test passes AND no sanitizer wrote a report: a report fails its
# process and goes to a log file (printed at the end), so a report from a child process
# whose exit status a test does not look at (a CLI test expecting "some error") still
# fails this script.
#   scripts/ci/sanitize.sh [build-dir]      (default build-san; relative to the repository)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-san}
supp="$PWD/scripts/ci"

start=$(date +%s)
kokkos=$(CXX=clang++ scripts/kokkos/build.sh "$(scripts/kokkos/build.sh --find-tarball)" "$PWD/$build-kokkos4-openmp" openmp)
kokkos_built=$(date +%s)
# -g1: file:line in reports without full debug info. -O0, except the CPU backends'
# libraries, the shared test bodies and what the fuzzers run at -O1, the optimisation the
# sanitizers' documentation suggests (optimize_run_time.cmake): the rest (the CLI, the other
# tests) compiles three times faster at -O0. _GLIBCXX_ASSERTIONS bounds-checks
# std::vector/span/array indexing, which ASan misses inside a vector's capacity. Clang's
# `undefined` includes float-cast-overflow (out-of-range float -> integer conversion).
# MPI off: Open MPI's runtime is not instrumented and keeps memory past MPI_Finalize that
# LeakSanitizer reports, and mpirun's ranks would crowd 2 cores.
# Python off: an instrumented extension module loads only into an interpreter started with
# the sanitizer runtimes preloaded; the module's C++ is the library's, checked here already.
cmake -S . -B "$build" -G Ninja \
  -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -g1" -DCMAKE_CXX_FLAGS="-D_GLIBCXX_ASSERTIONS" \
  -DCMAKE_PROJECT_INCLUDE="$supp/optimize_run_time.cmake" \
  -DPREDUCE_SANITIZE=address,undefined,fuzzer-no-link -DPREDUCE_BUILD_FUZZ=ON \
  -DKokkos_ROOT="$kokkos" -DPREDUCE_ENABLE_KOKKOS=ON \
  -DPREDUCE_ENABLE_CUDA=OFF -DPREDUCE_ENABLE_MPI=OFF -DPREDUCE_ENABLE_PYTHON=OFF -DPREDUCE_BUILD_BENCH=OFF -DPREDUCE_BUILD_TOOLS=ON \
  -DPREDUCE_BUILD_TESTS=ON >"$build.configure.log"
grep -E "Kokkos 4\.[0-9.]+ \(.*OPENMP.*\)" "$build.configure.log" ||
  { echo "sanitize: preduce did not configure against Kokkos 4 at $kokkos" >&2; cat "$build.configure.log" >&2; exit 1; }
cmake --build "$build" -j2
built=$(date +%s)

logs="$PWD/$build/sanitizer-logs"
rm -rf "$logs" && mkdir -p "$logs"
# abort_on_error: a report kills the process even where a handler would catch the exit.
# Suppressions: third-party code only, each entry says why (scripts/ci/*.supp).
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:log_path=$logs/asan"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp:log_path=$logs/ubsan"
# Left out besides the `large` label: the 2^24+1-element cases of the shared body (the
# slowest cases there; the same code paths as its 2^20+3-element cases, which stay), and
# consumer.add_subdirectory, which rebuilds preduce from source without PREDUCE_SANITIZE
# (consumer.find_package does link the instrumented install). The shared body itself
# shrinks its largest inputs in this build (test::instrumented, tests/support/data.hpp).
# OpenMP threads (the openmp backend's and Kokkos') sleep while they wait: two tests at a
# time, two threads each, on two cores. OMP_PROC_BIND=false, as Kokkos advises for tests:
# unset, Kokkos::OpenMP prints a warning on stderr, which the CLI tests read as an error.
export OMP_WAIT_POLICY=passive OMP_PROC_BIND=false
status=0
ctest --test-dir "$build" --output-on-failure -j2 -LE large -E '2\^24\+1 elements|consumer\.add_subdirectory' || status=$?
tested=$(date +%s)

reports=$(find "$logs" -type f | sort)
if [ -n "$reports" ]; then
  echo "sanitize: sanitizer reports:" >&2
  for f in $reports; do echo "== $f" >&2; cat "$f" >&2; done
  status=1
fi
echo "sanitize: Kokkos 4 $((kokkos_built - start)) s, build $((built - kokkos_built)) s, ctest $((tested - built)) s, reports: $(echo -n "$reports" | grep -c . || true)"
exit $status
