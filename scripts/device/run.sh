#!/usr/bin/env bash
# On the GPU machine, build-free, over build-device/ staged by prepare.sh (there is no cmake
# or ctest there: the tests come from the manifest build-device/tests.tsv, which prepare.sh
# took from ctest). Modes (the first argument; default all = tests, sanitize, bench):
#   tests     every manifest test, one process each as ctest runs them, JOBS at a time; the
#             RUN_SERIAL ones (test_cuda_only's cases, the out-of-memory cases, which take the
#             whole GPU) one by one afterwards. Writes tests.log (every test's output) and
#             tests_summary.txt (one line per test) to $OUT, and prints a table of the counts
#             and the names of the tests that did not pass.
#   sanitize  compute-sanitizer (memcheck, racecheck, synccheck, initcheck) over CUDA tests;
#             writes sanitize.log
#   bench     the GPU benchmark (bench_gpu.json, bench_gpu.txt, bench_summary.txt)
#   sweep     the one-wave grid size on the largest inputs, next to CUB
#   multigpu  (kind nvidia-h200-x2 or larger) the multi-GPU test's cases and the multigpu/
#             benchmark rows, then a table of them; writes at most 7 files to $OUT
#   python    the Python module that scripts/device/python_module.sh packed with its
#             interpreter: its pytest suite (the GPU arrays' cases run here), then
#             bench/python_vs_numpy.py's --device rows (python.log, python_device.json)
# Exit status 1 when a test failed, timed out, was not staged or ran no Catch2 case (its name
# matched none), when a test SKIPPED here (a skip on the GPU machine means it did not run:
# only the cases labelled multigpu may skip, and only where fewer than 2 GPUs are visible),
# when compute-sanitizer reported errors or did not finish, or when the benchmark failed;
# 2 when the packed executables cannot be unpacked.
# Narrower runs: TEST_REGEX (an extended regex on test names), JOBS (tests at a time, default
# 8), TEST_TIMEOUT (s per test process where ctest sets no TIMEOUT, default 400),
# SANITIZE_TOOLS, SANITIZE_TARGETS, SANITIZE_FILTER (Catch2 test spec), SANITIZE_TIMEOUT, BENCH_FILTER (a --benchmark_filter
# regex), REPS, MIN_TIME, BENCH_TIMEOUT. MANIFEST names another manifest (same columns).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
stage=$PWD/build-device
manifest=${MANIFEST:-$stage/tests.tsv}
out=${OUT:-/tmp/preduce-device-out}
mkdir -p "$out"
export LD_LIBRARY_PATH="$stage/lib:${LD_LIBRARY_PATH:-}"
export PREDUCE_TEST_SEED=${PREDUCE_TEST_SEED:-20261129}
mode=${1:-all}   # all | tests | sanitize | bench | sweep | multigpu | python
case "$mode" in
  all | tests | sanitize | bench | sweep | multigpu | python) ;;
  *) echo "run.sh: unknown mode '$mode'; use all, tests, sanitize, bench, sweep, multigpu or python" >&2; exit 2 ;;
esac
summary=()
status=0

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv >"$out/gpu.txt" 2>&1
cat "$out/gpu.txt"

# GPUs the tests see: nvidia-smi's count, narrowed by CUDA_VISIBLE_DEVICES when it is set.
gpu_count() {
  local n
  n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
  if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then
    local v
    v=$(tr ',' '\n' <<<"$CUDA_VISIBLE_DEVICES" | grep -c .)
    [ "$v" -lt "$n" ] && n=$v
  fi
  echo "$n"
}
gpus=$(gpu_count)

# The executables travel packed (prepare.sh); unpack them once per stage.
if [ -f "$stage/bin.tar.xz" ] && { [ ! -d "$stage/bin" ] || [ "$stage/bin.tar.xz" -nt "$stage/bin" ]; }; then
  rm -rf "${stage:?}/bin"
  python3 - "$stage/bin.tar.xz" "$stage" <<'EOF' || { echo "run.sh: cannot unpack $stage/bin.tar.xz" >&2; exit 2; }
import sys, tarfile
with tarfile.open(sys.argv[1]) as t:
    try:
        t.extractall(sys.argv[2], filter="data")
    except TypeError:  # a Python without extraction filters
        t.extractall(sys.argv[2])
EOF
  touch "$stage/bin"
fi

# run_manifest TAG [EXE]: runs the manifest's tests (those of executable EXE only, when
# given; those whose names match TEST_REGEX only, when set), one process each: JOBS at a
# time, then the serial ones one by one. Writes $out/TAG.log and $out/TAG_summary.txt, adds
# the counts to the summary and sets status to 1 when one did not pass.
run_manifest() {
  local tag=$1 only=${2:-}
  if [ ! -f "$manifest" ]; then
    summary+=("$tag: no manifest at $manifest (run scripts/device/prepare.sh and carry build-device)")
    status=1
    return
  fi
  local work
  work=$(mktemp -d)
  local -a names=() skips=() serials=() timeouts=() labels=() cmds=()
  local name skip serial tmo labs cmd n=0
  while IFS=$'\t' read -r name skip serial tmo labs cmd; do
    [ -z "$name" ] || [[ "$name" == \#* ]] && continue
    [ -n "$only" ] && [[ " $cmd " != *" build-device/bin/$only "* ]] && continue
    [ -n "${TEST_REGEX:-}" ] && ! [[ "$name" =~ $TEST_REGEX ]] && continue
    names[n]=$name skips[n]=$skip serials[n]=$serial timeouts[n]=$tmo labels[n]=$labs cmds[n]=$cmd
    n=$((n + 1))
  done <"$manifest"

  run_one() {
    local i=$1 t=${timeouts[$1]} start=$SECONDS
    [ "$t" -gt 0 ] 2>/dev/null || t=${TEST_TIMEOUT:-400}
    timeout -k 10 "$t" bash -c "${cmds[$i]}" >"$work/$i.log" 2>&1 </dev/null
    echo "$? $((SECONDS - start))" >"$work/$i.rc"
  }
  local start=$SECONDS i jobs=${JOBS:-8}
  for ((i = 0; i < n; i++)); do
    [ "${serials[i]}" = 1 ] && continue
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    run_one "$i" &
  done
  wait
  for ((i = 0; i < n; i++)); do
    [ "${serials[i]}" = 1 ] && run_one "$i"
  done

  local passed=0 failed=0 allowed=0 rc secs result cap=${LOG_CAP:-262144}
  local -a bad=()
  : >"$out/$tag.log"
  : >"$work/lines"
  for ((i = 0; i < n; i++)); do
    read -r rc secs <"$work/$i.rc"
    if [ "$rc" = 0 ] && grep -q '^No test cases matched' "$work/$i.log"; then
      result="RAN NO TEST CASE (its name matched none)"; failed=$((failed + 1))
    elif [ "$rc" = 0 ]; then
      result=passed; passed=$((passed + 1))
    elif [ "$rc" = "${skips[i]}" ] && [[ ",${labels[i]}," == *,multigpu,* ]] && [ "$gpus" -lt 2 ]; then
      result="skipped (allowed: needs 2 GPUs, $gpus visible)"; allowed=$((allowed + 1))
    elif [ "$rc" = "${skips[i]}" ]; then
      result="SKIPPED ON THE GPU MACHINE (did not run)"; failed=$((failed + 1))
    elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
      result="TIMED OUT"; failed=$((failed + 1))
    elif [ "$rc" = 127 ] || [ "$rc" = 126 ]; then
      result="NOT STAGED (rc=$rc)"; failed=$((failed + 1))
    else
      result="FAILED (rc=$rc)"; failed=$((failed + 1))
    fi
    [[ "$result" == passed || "$result" == skipped* ]] || bad+=("$result: ${names[i]} (${secs} s)")
    printf '%-45s %5s s  %s\n' "$result" "$secs" "${names[i]}" >>"$work/lines"
    {
      echo "===== $result, ${secs} s: ${names[i]}"
      echo "\$ ${cmds[i]}"
      head -c "$cap" "$work/$i.log"
      [ "$(wc -c <"$work/$i.log")" -gt "$cap" ] && echo "[... cut at $cap bytes]"
      echo
    } >>"$out/$tag.log"
  done
  {
    echo "$tag: $n tests from $manifest in $((SECONDS - start)) s, $gpus GPU(s) visible"
    echo "| result | tests |"
    echo "| --- | ---: |"
    echo "| passed | $passed |"
    echo "| failed, timed out, not staged, or skipped on the GPU machine | $failed |"
    echo "| skipped as allowed (2-GPU cases, fewer than 2 GPUs visible) | $allowed |"
    if [ "${#bad[@]}" -gt 0 ]; then
      echo "did not pass:"
      printf '  %s\n' "${bad[@]}"
    fi
  } >"$work/table"
  cat "$work/table" "$work/lines" >"$out/${tag}_summary.txt"
  cat "$work/table"
  summary+=("$tag: $passed passed, $failed failed, $allowed skipped as allowed (of $n); $out/${tag}_summary.txt")
  [ "$n" -gt 0 ] || { summary+=("$tag: no tests selected"); status=1; }
  [ "$failed" = 0 ] || status=1
  rm -rf "$work"
}

if [ "$mode" = all ] || [ "$mode" = tests ]; then
  run_manifest tests
fi

if [ "$mode" = all ] || [ "$mode" = sanitize ]; then
  # Cases small enough for the instrumented run; every kernel path (single block, two-pass,
  # host staging, NaN/tie/empty handling) is reached by them. test_cuda_async runs all its
  # cases (the ordered, zip and moments paths). SANITIZE_TOOLS / SANITIZE_TARGETS narrow a
  # run when device time is short. A run fails on any error the tool reports (exit 99 or a
  # nonzero ERROR/RACECHECK SUMMARY), a failing or skipped test, or a timeout (it did not
  # finish checking).
  # racecheck: fixed_blocks_staged is left out of the library's programs. Its reports (every
  # one of them a write at X and a read at X+0x70) are thread 0's store of hand_on's "last
  # CTA" flag, the __syncthreads, and every thread's load of it (STS.U8; BAR.SYNC 0; LDS.U8 in
  # the SASS): ordered by bar.sync 0, so not a race. The tool loses that order in CTAs whose
  # warps used bar.arrive on a named barrier first (docs/fixed-order-gpu.md).
  # test_cuda_racecheck_handoffs holds those hand-offs alone beside controls without the named
  # barriers: reports in the named-barrier kernels are printed as the tool's, and a report in a
  # control, or a wrong sum, fails the run.
  filter=${SANITIZE_FILTER:-'[ties],[extremes],[float],[empty],[errors],[threads],[moments]'}
  : >"$out/sanitize.log"
  for tool in ${SANITIZE_TOOLS:-memcheck racecheck synccheck initcheck}; do
    targets="test_cuda_device test_cuda_async"   # every kernel path; the host-staging path adds copies only
    [ "$tool" = memcheck ] && targets="test_cuda_device test_cuda test_cuda_async"
    [ "$tool" = racecheck ] && targets="test_cuda_racecheck_handoffs $targets"
    targets=${SANITIZE_TARGETS:-$targets}
    for t in $targets; do
      [ -x "$stage/bin/$t" ] || { summary+=("$tool $t: NOT STAGED"); status=1; continue; }
      args=("$filter")
      [ "$t" = test_cuda_async ] && args=('~[large]')  # every case but the 17 GiB one
      [ "$t" = test_multigpu ] && args=('[multi]')   # the cases over every visible GPU
      log=$(mktemp)
      # synccheck tracks 1024 mbarriers by default; the bulk block pass has 16 a CTA (2112 in a
      # wave on an H200), and past the limit the tool fails launches it cannot follow.
      tool_args=(--error-exitcode 99)
      [ "$tool" = synccheck ] && tool_args+=(--num-cuda-barriers 8192)
      [ "$tool" = racecheck ] && tool_args+=(--kernel-name-exclude kns=fixed_blocks_staged)
      [ "$t" = test_cuda_racecheck_handoffs ] && args=() && tool_args=(--racecheck-report all)
      timeout "${SANITIZE_TIMEOUT:-$([ "$tool" = racecheck ] && echo 300 || echo 110)}" compute-sanitizer --tool "$tool" \
        "${tool_args[@]}" --print-limit 200 "$stage/bin/$t" "${args[@]}" >"$log" 2>&1
      rc=$?
      found=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -n 1)
      # The reproducer's kernels with a report (names without arguments, one a line): only the
      # named-barrier ones may have one.
      reported=$(grep -oE 'access at [^+]*\+0x' "$log" | sed -E 's/^access at (void )?//; s/\(anonymous namespace\):://g;
                 s/<\(bool\)1>/<true>/; s/<\(bool\)0>/<false>/; s/\(.*//' | sort -u)
      if [ "$t" = test_cuda_racecheck_handoffs ] && [ "$rc" = 0 ]; then
        if grep -qvE '^(named_handoff|named_then_cta<true>|named_then_flag<true>)$' <<<"$reported" && [ -n "$reported" ]; then
          verdict="ERRORS REPORTED (in a control: $(tr '\n' ' ' <<<"$reported"))"
        elif [ -n "$reported" ]; then
          verdict="clean: reports in the named-barrier kernels alone, the tool's ($(tr '\n' ' ' <<<"$reported"))"
        else verdict=clean
        fi
      elif [ "$rc" = 99 ] || grep -qE '(ERROR|RACECHECK) SUMMARY: [1-9]' "$log"; then verdict="ERRORS REPORTED"
      elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then verdict="TIMED OUT (not finished)"
      elif [ "$rc" = 77 ] && [ "$t" = test_multigpu ] && [ "$gpus" -lt 2 ]; then verdict="skipped (needs 2 GPUs)"
      elif [ "$rc" = 77 ]; then verdict="SKIPPED ON THE GPU MACHINE"
      elif [ "$rc" != 0 ]; then verdict="TEST FAILED (rc=$rc)"
      else verdict=clean
      fi
      [[ "$verdict" == clean* || "$verdict" == skipped* ]] || status=1
      summary+=("$tool $t: $verdict, rc=$rc, $found")
      { echo "===== $tool $t: $verdict, rc=$rc"; cat "$log"; echo; } >>"$out/sanitize.log"
      rm -f "$log"
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
  rc=$?
  summary+=("bench rc=$rc, $((SECONDS - bench_start)) s")
  [ "$rc" = 0 ] || status=1
  python3 bench/gpu/summary.py "$out/bench_gpu.json" | tee "$out/bench_summary.txt" || status=1
fi

if [ "$mode" = sweep ]; then
  # Tuning sweep of the one-wave grid size on the largest inputs, next to CUB.
  for b in 4 8 16; do
    PREDUCE_CUDA_BLOCKS_PER_SM=$b "$stage/bin/preduce_bench_gpu" --benchmark_repetitions=5 \
      --benchmark_report_aggregates_only=true --benchmark_min_time=0.05 \
      --benchmark_filter='(reduce/cuda|anchor/cub)/(sum|max)/float32/(268435456|1073741824)/' \
      --benchmark_out="$out/sweep_$b.json" --benchmark_out_format=json >/dev/null 2>&1 || status=1
    echo "blocks_per_sm=$b"
    python3 bench/gpu/summary.py "$out/sweep_$b.json" | grep -E '^\| (sum|max) '
  done
fi

if [ "$mode" = multigpu ]; then
  { echo; nvidia-smi topo -m; } >>"$out/gpu.txt" 2>&1
  # Every case of the multi-GPU test: [plan] (no GPU), [one] (GPU 0), [multi] (every visible GPU).
  run_manifest multigpu_tests test_multigpu
  # 1 GPU vs 2 GPUs, f32 sum of 2^30 per GPU from device parts, plus host data; host clock.
  bench_start=$SECONDS
  timeout "${BENCH_TIMEOUT:-240}" "$stage/bin/preduce_bench_gpu" --benchmark_filter='^multigpu/' \
    --benchmark_repetitions="${REPS:-5}" --benchmark_report_aggregates_only=true --benchmark_min_time="${MIN_TIME:-0.05}" \
    --benchmark_out="$out/bench_multigpu.json" --benchmark_out_format=json >"$out/bench_multigpu.txt" 2>&1
  rc=$?
  summary+=("bench multigpu rc=$rc, $((SECONDS - bench_start)) s")
  [ "$rc" = 0 ] || status=1
  python3 bench/gpu/multigpu_summary.py "$out/bench_multigpu.json" | tee "$out/multigpu_summary.txt" || status=1
fi

if [ "$mode" = python ]; then
  if [ ! -f "$stage/python.tar.xz" ]; then
    summary+=("python: no $stage/python.tar.xz (scripts/device/python_module.sh carry)")
    status=1
  else
    rm -rf "$stage/python" && tar xJf "$stage/python.tar.xz" -C "$stage"
    export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
    python="$stage/python/root/usr/bin/python3"  # the interpreter python_module.sh packed
    export PYTHONHOME="$stage/python/root/usr" PYTHONPATH="$stage/python/site"
    export LD_LIBRARY_PATH="$stage/python/lib:$LD_LIBRARY_PATH"
    "$python" -c 'import sys, numpy, preduce; print(sys.version.split()[0], "NumPy", numpy.__version__, preduce.backends())'
    py_start=$SECONDS
    "$python" -m pytest -q -p no:cacheprovider python/tests >"$out/python.log" 2>&1
    rc=$?
    tail -3 "$out/python.log"
    summary+=("python pytest rc=$rc, $((SECONDS - py_start)) s")
    [ "$rc" = 0 ] || status=1
    timeout "${BENCH_TIMEOUT:-300}" "$python" bench/python_vs_numpy.py --device-only --json "$out/python_device.json" \
      2>&1 | tee -a "$out/python.log" || status=1
  fi
fi

printf '%s\n' "${summary[@]}"
[ "$status" = 0 ] && echo "run.sh: OK" || echo "run.sh: FAILED (see above)"
exit "$status"
