#!/usr/bin/env bash
# On the GPU machine: two builds' GPU benchmarks side by side in one lease, in turn
# (before, after, before, after), so that a change can be shown to cost no speed. BEFORE
# and AFTER are stage folders of prepare.sh (default build-device-before and build-device),
# each holding at least preduce_bench_gpu (STAGE="preduce_bench_gpu" scripts/device/prepare.sh
# in a checkout of the older commit, then its build-device copied here as
# build-device-before). Writes $OUT/before_<k>.json and $OUT/after_<k>.json (k = 1..ROUNDS)
# and prints bench/compare.py's table of the two.
#   BENCH_FILTER  --benchmark_filter regex (default: every row)
#   REPS, MIN_TIME, ROUNDS (default 3, 0.05, 2)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
before=${BEFORE:-build-device-before}
after=${AFTER:-build-device}
out=${OUT:-/tmp/preduce-device-out}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv >"$out/gpu.txt" 2>&1
cat "$out/gpu.txt"

unpack() {  # the stage's packed executables, once (as run.sh does)
  local stage=$1
  if [ -f "$stage/bin.tar.xz" ] && [ ! -d "$stage/bin" ]; then
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$stage/bin.tar.xz" "$stage" ||
      { echo "bench_ab.sh: cannot unpack $stage/bin.tar.xz" >&2; exit 2; }
  fi
  [ -x "$stage/bin/preduce_bench_gpu" ] || { echo "bench_ab.sh: $stage has no bin/preduce_bench_gpu" >&2; exit 2; }
}
unpack "$before"
unpack "$after"

run() {  # stage, output file
  LD_LIBRARY_PATH="$PWD/$1/lib:${LD_LIBRARY_PATH:-}" "$1/bin/preduce_bench_gpu" \
    --benchmark_repetitions="${REPS:-3}" --benchmark_min_time="${MIN_TIME:-0.05}" \
    --benchmark_out="$2" --benchmark_out_format=json ${BENCH_FILTER:+--benchmark_filter="$BENCH_FILTER"} >/dev/null 2>&1 ||
    { echo "bench_ab.sh: $1's benchmark failed" >&2; exit 1; }
}
befores=() afters=()
for k in $(seq 1 "${ROUNDS:-2}"); do
  start=$SECONDS
  run "$before" "$out/before_$k.json"
  run "$after" "$out/after_$k.json"
  befores+=("$out/before_$k.json")
  afters+=("$out/after_$k.json")
  echo "round $k: $((SECONDS - start)) s"
done
join() { local IFS=,; echo "$*"; }
python3 bench/compare.py "$(join "${befores[@]}")" "$(join "${afters[@]}")" --noise "${NOISE:-0.05}" | tee "$out/compare.txt"
