#!/usr/bin/env bash
# On the GPU machine, build-free, over build-device/ staged by prepare.sh: the CUDA tests,
# compute-sanitizer (memcheck, racecheck, synccheck, initcheck) over them, then the GPU
# benchmark. Full logs go to $OUT; the tables to read are printed last.
# Narrower runs: TEST_TIMEOUT (s per executable), SANITIZE_TOOLS, SANITIZE_TARGETS,
# BENCH_FILTER (a --benchmark_filter regex), REPS, MIN_TIME.
# Mode multigpu (kind nvidia-h200-x2 or larger): the multi-GPU test (plan, one, multi) and
# the multigpu/ benchmark rows, then a table of them; writes at most 7 files to $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
stage=$PWD/build-device
out=${OUT:-/tmp/preduce-device-out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$stage/lib:${LD_LIBRARY_PATH:-}"
export PREDUCE_TEST_SEED=${PREDUCE_TEST_SEED:-20261129}
mode=${1:-all}   # all | tests | sanitize | bench | sweep | multigpu
summary=()

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv >"$out/gpu.txt" 2>&1
cat "$out/gpu.txt"

if [ "$mode" = all ] || [ "$mode" = tests ]; then
  # The executables share the GPU, so they run side by side, except test_cuda_only, which
  # takes all device memory on purpose (out-of-memory case) and runs alone afterwards.
  run_test() {
    if [ ! -x "$stage/bin/$1" ]; then echo 127 >"$out/$1.rc"; echo "not staged" >"$out/$1.log"; return; fi
    timeout "${TEST_TIMEOUT:-400}" "$stage/bin/$1" >"$out/$1.log" 2>&1
    echo $? >"$out/$1.rc"
  }
  for t in test_frontend test_cuda test_cuda_device test_cuda_managed test_cuda_async test_custom_cuda \
           test_reliability_concurrency; do
    run_test "$t" &
  done
  wait
  run_test test_cuda_only
  for t in test_frontend test_cuda test_cuda_device test_cuda_managed test_cuda_async test_custom_cuda \
           test_reliability_concurrency test_cuda_only; do
    [ -x "$stage/bin/$t" ] || continue
    summary+=("test $t: rc=$(cat "$out/$t.rc"), $(tail -n 2 "$out/$t.log" | tr '\n' ' ')")
  done
  # Injected reduce_async failures, one process per scenario; out_of_memory takes the whole GPU, so alone.
  if [ -x "$stage/bin/test_reliability_cuda_async" ]; then
    for sc in small_workspace pageable_input freed_input out_of_memory; do
      timeout "${TEST_TIMEOUT:-400}" "$stage/bin/test_reliability_cuda_async" "$sc" >"$out/reliability_cuda_async_$sc.log" 2>&1
      summary+=("reliability cuda_async $sc: rc=$?, $(tail -n 2 "$out/reliability_cuda_async_$sc.log" | tr '\n' ' ')")
    done
  fi
fi

# The multi-GPU test: plan (no GPU), one (GPU 0), multi (every visible GPU; 77 below 2).
run_multigpu_tests() {
  for m in plan one multi; do
    if [ ! -x "$stage/bin/test_multigpu" ]; then summary+=("test_multigpu $m: not staged"); continue; fi
    timeout "${TEST_TIMEOUT:-400}" "$stage/bin/test_multigpu" "$m" >"$out/multigpu_$m.log" 2>&1
    rc=$?
    summary+=("test_multigpu $m: rc=$rc ($([ $rc = 0 ] && echo passed || { [ $rc = 77 ] && echo SKIPPED || echo FAILED; })), $(tail -n 1 "$out/multigpu_$m.log"))")
  done
}
[ "$mode" = all ] || [ "$mode" = tests ] && run_multigpu_tests

if [ "$mode" = all ] || [ "$mode" = sanitize ]; then
  # Cases small enough for the instrumented run; every kernel path (single block, two-pass,
  # host staging, NaN/tie/empty handling) is reached by them.
  # test_cuda_async (a plain program, ignores the filter) adds the ordered, zip and
  # moments paths. SANITIZE_TOOLS / SANITIZE_TARGETS narrow a run when device time is short.
  filter='[ties],[extremes],[float],[empty],[errors],[threads],[moments]'
  for tool in ${SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}; do
    targets="test_cuda_device test_cuda_async"   # every kernel path; the host-staging path adds copies only
    [ "$tool" = memcheck ] && targets="test_cuda_device test_cuda test_cuda_async"
    targets=${SANITIZE_TARGETS:-$targets}
    for t in $targets; do
      log="$out/sanitize_${tool}_$t.log"
      [ -x "$stage/bin/$t" ] || { summary+=("$tool $t: not staged"); continue; }
      args=("$filter")
      [ "$t" = test_multigpu ] && args=(multi)   # its argument is a mode: every visible GPU
      timeout "${SANITIZE_TIMEOUT:-110}" compute-sanitizer --tool "$tool" --error-exitcode 99 --print-limit 200 \
        "$stage/bin/$t" "${args[@]}" >"$log" 2>&1
      rc=$?
      summary+=("$tool $t: rc=$rc, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -n 1)")
    done
  done
fi

if [ "$mode" = all ] || [ "$mode" = bench ]; then
  # The full run: 394 rows (every op x type x n, the anchors, the transforms, the ladder),
  # about 3.5 minutes on an H200 at REPS=5, MIN_TIME=0.05 (~0.5 s a row: the iteration
  # count is fixed in the first repetition, ~1.4 x MIN_TIME of event time per repetition,
  # plus ~6.5 us of host time per call on the small rows).
  bench_start=$SECONDS
  "$stage/bin/preduce_bench_gpu" --benchmark_repetitions="${REPS:-5}" --benchmark_report_aggregates_only=true \
    --benchmark_min_time="${MIN_TIME:-0.05}" \
    --benchmark_out="$out/bench_gpu.json" --benchmark_out_format=json ${BENCH_FILTER:+--benchmark_filter="$BENCH_FILTER"} \
    >"$out/bench_gpu.txt" 2>&1
  summary+=("bench rc=$?, $((SECONDS - bench_start)) s")
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

if [ "$mode" = multigpu ]; then
  { echo; nvidia-smi topo -m; } >>"$out/gpu.txt" 2>&1
  run_multigpu_tests
  # 1 GPU vs 2 GPUs, f32 sum of 2^30 per GPU from device parts, plus host data; host clock.
  bench_start=$SECONDS
  timeout "${BENCH_TIMEOUT:-240}" "$stage/bin/preduce_bench_gpu" --benchmark_filter='^multigpu/' \
    --benchmark_repetitions="${REPS:-5}" --benchmark_report_aggregates_only=true --benchmark_min_time="${MIN_TIME:-0.05}" \
    --benchmark_out="$out/bench_multigpu.json" --benchmark_out_format=json >"$out/bench_multigpu.txt" 2>&1
  summary+=("bench multigpu rc=$?, $((SECONDS - bench_start)) s")
  python3 bench/gpu/multigpu_summary.py "$out/bench_multigpu.json" | tee "$out/multigpu_summary.txt"
fi

printf '%s\n' "${summary[@]}"
