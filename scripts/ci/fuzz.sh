#!/usr/bin/env bash
# CI: builds the libFuzzer targets with clang (ASan + UBSan, coverage in preduce itself)
# and fuzzes each for a bounded time, starting from the seed corpora and the regression
# inputs of the repository, which are read but never written (new inputs go to a
# temporary directory). Fails on any finding: a crash, a sanitizer report, a timeout,
# running out of memory, or a disagreement between backends (the body aborts).
#   scripts/ci/fuzz.sh [build-dir]     (default build-fuzz; a build configured with
#                                       PREDUCE_BUILD_FUZZ=ON is used as it is)
#   FUZZ_SECONDS=40 CLI_FUZZ_SECONDS=15  time per fuzzer (reduce / each CLI reader)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-fuzz}
reduce_seconds=${FUZZ_SECONDS:-40}
cli_seconds=${CLI_FUZZ_SECONDS:-15}

start=$(date +%s)
if grep -qs '^PREDUCE_BUILD_FUZZ:BOOL=ON' "$build/CMakeCache.txt"; then
  # A build that already has the fuzz targets (scripts/ci/sanitize.sh's, which CI passes):
  # fuzz in it as it is configured.
  echo "fuzz: the fuzz targets of $build as configured there"
else
  # Tools on only for the CLI's readers (preduce_cli_readers, which fuzz/ fuzzes); only the
  # fuzz targets are built. fuzzer-no-link: libFuzzer's coverage instrumentation in every
  # target, so the fuzzer steers by preduce's own branches, not just the fuzz body's.
  cmake -S . -B "$build" -G Ninja \
    -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DPREDUCE_SANITIZE=address,undefined,fuzzer-no-link -DPREDUCE_BUILD_FUZZ=ON \
    -DPREDUCE_ENABLE_CUDA=OFF -DPREDUCE_ENABLE_MPI=OFF \
    -DPREDUCE_BUILD_TESTS=OFF -DPREDUCE_BUILD_BENCH=OFF -DPREDUCE_BUILD_TOOLS=ON -DPREDUCE_INSTALL=OFF
fi
cmake --build "$build" -j2 --target preduce_fuzz_reduce preduce_fuzz_npy preduce_fuzz_text
built=$(date +%s)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$PWD/scripts/ci/ubsan.supp"
export LSAN_OPTIONS="suppressions=$PWD/scripts/ci/lsan.supp:print_suppressions=0"

# fuzz NAME BINARY SECONDS MAX_LEN SEED_DIR...
fuzz() {
  local name=$1 binary=$2 seconds=$3 max_len=$4
  shift 4
  local seeds=()
  for d in "$@"; do [ -d "$d" ] && seeds+=("$d"); done
  mkdir -p "$work/$name/corpus" "$work/$name/artifacts"
  echo "fuzz: $name for ${seconds}s from ${seeds[*]}"
  local status=0
  "$binary" "$work/$name/corpus" "${seeds[@]}" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
    -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$work/$name/artifacts/" \
    >"$work/$name/log" 2>&1 || status=$?
  local executed
  executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name/log" | tail -1)
  if [ "$status" -ne 0 ]; then
    tail -n 60 "$work/$name/log" >&2
    for a in "$work/$name/artifacts"/*; do
      [ -e "$a" ] || continue
      echo "fuzz: $name finding: $(basename "$a") ($(od -An -tx1 "$a" | tr -d ' \n' | head -c 400))" >&2
    done
    echo "fuzz: $name FAILED (exit $status). Reproduce: $binary <file>; keep the input in fuzz/regressions/ once fixed." >&2
    return 1
  fi
  echo "fuzz: $name ok, ${executed:-?} inputs executed, $(ls "$work/$name/corpus" | wc -l) new corpus entries"
}

failed=0
fuzz reduce "$build/fuzz/preduce_fuzz_reduce" "$reduce_seconds" 4096 \
  fuzz/corpus/reduce fuzz/regressions/reduce || failed=1
fuzz npy "$build/fuzz/preduce_fuzz_npy" "$cli_seconds" 4096 fuzz/corpus/npy fuzz/regressions/npy || failed=1
fuzz text "$build/fuzz/preduce_fuzz_text" "$cli_seconds" 4096 fuzz/corpus/text fuzz/regressions/text || failed=1
done_at=$(date +%s)
echo "fuzz: build $((built - start)) s, fuzzing $((done_at - built)) s"
exit $failed
