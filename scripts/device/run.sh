#!/usr/bin/env bash
# On the GPU machine, build-free, over build-device/ staged by prepare.sh: the CUDA tests,
# compute-sanitizer (memcheck, racecheck, synccheck, initcheck) over them, then the GPU
# benchmark. Full logs go to $OUT; the tables to read are printed last.
set -uo pipefail
cd "$(dirname "$0")/../.."
stage=$PWD/build-device
out=${OUT:-/tmp/preduce-device-out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$stage/lib:${LD_LIBRARY_PATH:-}"
export PREDUCE_TEST_SEED=${PREDUCE_TEST_SEED:-20261129}
mode=${1:-all}   # all | tests | sanitize | bench | sweep
summary=()

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv >"$out/gpu.txt" 2>&1
cat "$out/gpu.txt"

if [ "$mode" = all ] || [ "$mode" = tests ]; then
  for t in test_frontend test_cuda test_cuda_device test_cuda_managed test_cuda_only test_cuda_async; do
    "$stage/bin/$t" >"$out/$t.log" 2>&1
    rc=$?
    summary+=("test $t: rc=$rc, $(tail -n 2 "$out/$t.log" | tr '\n' ' ')")
  done
fi

if [ "$mode" = all ] || [ "$mode" = sanitize ]; then
  # Cases small enough for the instrumented run; every kernel path (single block, two-pass,
  # host staging, NaN/tie/empty handling) is reached by them.
  filter='[ties],[extremes],[float],[empty],[errors],[threads]'
  for tool in memcheck racecheck synccheck initcheck; do
    targets="test_cuda_device"   # every kernel path; the host-staging path adds copies only
    [ "$tool" = memcheck ] && targets="test_cuda_device test_cuda"
    for t in $targets; do
      log="$out/sanitize_${tool}_$t.log"
      timeout "${SANITIZE_TIMEOUT:-110}" compute-sanitizer --tool "$tool" --error-exitcode 99 --print-limit 200 \
        "$stage/bin/$t" "$filter" >"$log" 2>&1
      rc=$?
      summary+=("$tool $t: rc=$rc, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -n 1)")
    done
  done
fi

if [ "$mode" = all ] || [ "$mode" = bench ]; then
  "$stage/bin/preduce_bench_gpu" --benchmark_repetitions="${REPS:-5}" --benchmark_report_aggregates_only=true \
    --benchmark_min_time="${MIN_TIME:-0.05}" \
    --benchmark_out="$out/bench_gpu.json" --benchmark_out_format=json ${BENCH_FILTER:+--benchmark_filter="$BENCH_FILTER"} \
    >"$out/bench_gpu.txt" 2>&1
  summary+=("bench rc=$?")
  python3 bench/gpu/summary.py "$out/bench_gpu.json" | tee "$out/bench_summary.txt"
fi

if [ "$mode" = sweep ]; then
  # Tuning sweep of the one-wave grid size on the largest inputs, next to CUB.
  for b in 4 8 16; do
    PREDUCE_CUDA_BLOCKS_PER_SM=$b "$stage/bin/preduce_bench_gpu" --benchmark_repetitions=5 \
      --benchmark_report_aggregates_only=true --benchmark_min_time=0.05 \
      --benchmark_filter='(reduce/cuda|anchor/cub)/(sum|max)/float32/(268435456|1073741824)/' \
      --benchmark_out="$out/sweep_$b.json" --benchmark_out_format=json >/dev/null 2>&1
    echo "blocks_per_sm=$b"
    python3 bench/gpu/summary.py "$out/sweep_$b.json" | grep -E '^\| (sum|max) '
  done
fi

printf '%s\n' "${summary[@]}"
