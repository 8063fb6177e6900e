#!/usr/bin/env bash
# Here (no GPU needed): builds the CUDA configuration for sm_90 in build-gpu/ and stages what
# the GPU machine runs into build-device/, small enough to travel with the device tool's
# `carry` (64 MiB). The GPU machine has python3 but no cmake, no ctest and none of our Debian
# libraries, so build-device/ holds:
#   tests.tsv    the test manifest, taken from ctest itself (ctest --show-only=json-v1) for
#                the selections below: one line per ctest test (one Catch2 case each for the
#                Catch2 programs) with its name, skip return code, RUN_SERIAL, TIMEOUT,
#                labels and command, build-gpu's paths rewritten to the staged bin/ and
#                source paths made relative to the repository root, where run.sh runs them
#   bin.tar.xz   the executables those commands name, plus the GPU benchmark and the CLI;
#                xz, because they share most of their bytes (~1.2 GB pack into a few MB)
#   lib/         the shared libraries ldd names that the GPU machine's image lacks
# Tests that need what the GPU machine lacks (a compiler, mpiexec, cmake) are left out of the
# manifest and named here. A test whose executable failed to build stays in the manifest as
# a failing line, so the device run cannot pass without it.
# Then, through the device tool:
#   run(command="scripts/device/run.sh tests", carry=["build-device"])
# STAGE="test_multigpu preduce_bench_gpu" stages only the executables named (and the
# manifest only their tests), e.g. for run.sh multigpu. BUILD=0 stages what build-gpu holds
# without configuring or building it.
# KOKKOS_ROOT=<prefix> (a CUDA-enabled Kokkos from scripts/kokkos/build.sh ... cuda): the
# kokkos backend on that Kokkos beside cuda, built in build-gpu-kokkos/ with the prefix's
# nvcc_wrapper as the C++ compiler (seq, cuda and kokkos; OpenMP and MPI off), and the kokkos
# tests staged as well: the shared body through kokkos(Cuda) on host, device and managed
# data, the custom ops body and Kokkos' lifecycle. Its benchmark has the kokkos/ rows.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=build-gpu
stage=build-device
# What the GPU machine runs, as ctest selections (their union):
selections=(
  "-L cuda"                          # every CUDA test (reliability's reduce_async failures too)
  "-L frontend -E is.not.built"      # the front end, with the cuda backend usable (every backend
                                     # is built there, so the not-built case has nothing to check)
  "-L reliability -LE large|kokkos"  # concurrent callers and bad arguments on every backend
)
# Staged beside the tests, for run.sh's bench, sweep and multigpu modes.
extras="bench/gpu/preduce_bench_gpu tools/preduce/preduce"
configure=(-DPREDUCE_BUILD_TOOLS=ON)
if [ -n "${KOKKOS_ROOT:-}" ]; then
  kokkos_root=$(cd "$KOKKOS_ROOT" && pwd)
  [ -x "$kokkos_root/bin/nvcc_wrapper" ] ||
    { echo "prepare.sh: $kokkos_root has no bin/nvcc_wrapper: not a CUDA-enabled Kokkos from scripts/kokkos/build.sh" >&2; exit 2; }
  build=build-gpu-kokkos
  selections+=("-L kokkos -LE large")
  extras="bench/gpu/preduce_bench_gpu"
  configure=(-DCMAKE_CXX_COMPILER="$kokkos_root/bin/nvcc_wrapper" -DKokkos_ROOT="$kokkos_root"
             -DCMAKE_CUDA_HOST_COMPILER=g++ -DPREDUCE_ENABLE_KOKKOS=ON -DPREDUCE_ENABLE_OPENMP=OFF
             -DPREDUCE_ENABLE_MPI=OFF -DPREDUCE_BUILD_TOOLS=OFF)
  export PATH="${CUDA_HOME:-/usr/local/cuda}/bin:$PATH"
  # Kokkos on CUDA links the driver (libcuda.so.1), which a machine without a GPU lacks, so
  # Catch2's test discovery (it runs each test program at build time) loads the toolkit's
  # stub in its place. The stub is never staged: the GPU machine has the real driver.
  stub="$PWD/$build/cuda-driver-stub"
  mkdir -p "$stub"
  ln -sf "${CUDA_HOME:-/usr/local/cuda}/lib64/stubs/libcuda.so" "$stub/libcuda.so.1"
  export LD_LIBRARY_PATH="$stub${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

if [ "${BUILD:-1}" != 0 ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPREDUCE_ENABLE_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DPREDUCE_BUILD_TESTS=ON -DPREDUCE_BUILD_BENCH=ON -DPREDUCE_BUILD_GPU_TESTS=ON \
    "${configure[@]}" >/dev/null
  # Keep going past targets that fail (work in progress elsewhere in the tree): whatever was
  # built is staged, and what is missing fails on the GPU machine (see above).
  cmake --build "$build" -- -k 0 || echo "prepare.sh: some targets failed to build (above); staging what was built" >&2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for i in "${!selections[@]}"; do
  # shellcheck disable=SC2086  # a selection is several ctest arguments
  ctest --test-dir "$build" ${selections[$i]} --show-only=json-v1 >"$tmp/selection$i.json"
done

rm -rf "$stage"
mkdir -p "$stage/lib" "$tmp/bin"
# The manifest, and the list of executables it names (relative to $build).
BUILD_DIR=$build STAGE_DIR=$stage STAGE_ONLY=${STAGE:-} SELECTIONS="$(printf '%s | ' "${selections[@]}")" \
python3 - "$tmp"/selection*.json >"$stage/tests.tsv" 3>"$tmp/executables" <<'EOF'
import json, os, shlex, sys

build = os.path.realpath(os.environ["BUILD_DIR"])
source = os.path.realpath(".")
stage_bin = os.environ["STAGE_DIR"] + "/bin"
only = set(os.environ["STAGE_ONLY"].split())
tests = {}  # name -> ctest's test object, in the order of the first selection that has it
for path in sys.argv[1:]:
    for t in json.load(open(path))["tests"]:
        tests.setdefault(t["name"], t)

rows, left_out, executables = [], [], {}
def leave_out(name, why):
    left_out.append(f"{name}: {why}")

for name, t in tests.items():
    props = {p["name"]: p["value"] for p in t.get("properties", [])}
    command = t.get("command") or []
    if "\t" in name or "\n" in name:
        leave_out(name, "a tab or newline in its name")
        continue
    if "_NOT_BUILT" in name:  # catch_discover_tests' stand-in for an executable that did not build
        target = name.split("_NOT_BUILT")[0]
        if only and target not in only:
            continue
        print(f"prepare.sh: not built, so its tests fail on the GPU machine: {target}", file=sys.stderr)
        command = ["sh", "-c", f"echo 'not built by prepare.sh: {target}'; exit 1"]
        props = {"LABELS": props.get("LABELS", [])}
    elif props.get("DISABLED"):
        continue
    else:
        unsupported = [p for p in ("WILL_FAIL", "PASS_REGULAR_EXPRESSION", "FAIL_REGULAR_EXPRESSION",
                                   "SKIP_REGULAR_EXPRESSION", "FIXTURES_REQUIRED", "FIXTURES_SETUP",
                                   "FIXTURES_CLEANUP") if p in props]
        if unsupported:
            leave_out(name, "run.sh does not implement " + ", ".join(unsupported))
            continue
        if not command or not os.path.isabs(command[0]) or not command[0].startswith(build + "/"):
            leave_out(name, f"runs {os.path.basename(command[0]) if command else 'nothing'}, not a built executable")
            continue
        exe = os.path.relpath(command[0], build)
        if only and os.path.basename(exe) not in only:
            continue
        rewritten = []
        for i, arg in enumerate(command):
            if i == 0 or (arg.startswith(build + "/") and os.access(arg, os.X_OK) and os.path.isfile(arg)):
                rel = os.path.relpath(arg, build)
                base = os.path.basename(rel)
                if executables.setdefault(base, rel) != rel:
                    sys.exit(f"prepare.sh: two staged executables named {base}: {executables[base]} and {rel}")
                rewritten.append(f"{stage_bin}/{base}")
            elif arg.startswith(build + "/") or arg == build:
                break
            elif arg.startswith(source + "/"):
                rewritten.append(os.path.relpath(arg, source))
            else:
                rewritten.append(arg)
        if len(rewritten) != len(command):
            leave_out(name, "an argument in build-gpu that is not a staged executable")
            continue
        command = rewritten
        if props.get("ENVIRONMENT"):
            command = ["env"] + list(props["ENVIRONMENT"]) + command
    skip = props.get("SKIP_RETURN_CODE")
    rows.append("\t".join([name, "-" if skip is None else str(skip), "1" if props.get("RUN_SERIAL") else "0",
                           str(int(props.get("TIMEOUT", 0) or 0)), ",".join(props.get("LABELS", [])) or "-",
                           shlex.join(command)]))

print("# preduce GPU test manifest, written by scripts/device/prepare.sh from ctest --show-only=json-v1 for:")
print("#   " + os.environ["SELECTIONS"].rstrip(" |"))
print("# One test a line, tab-separated: name, skip return code (- for none), serial (RUN_SERIAL),")
print("# timeout in s (0: ctest sets none), labels, command (shell words, run from the repository root).")
print("\n".join(rows))
with os.fdopen(3, "w") as f:
    f.write("\n".join(sorted(set(executables.values()))) + "\n")
print(f"prepare.sh: manifest {os.environ['STAGE_DIR']}/tests.tsv: {len(rows)} tests from "
      f"{len(executables)} executables", file=sys.stderr)
if left_out:
    print(f"prepare.sh: {len(left_out)} selected tests are not run on the GPU machine:", file=sys.stderr)
    for line in left_out:
        print("  " + line, file=sys.stderr)
EOF

for exe in $(cat "$tmp/executables") $extras; do
  if [ -n "${STAGE:-}" ] && ! [[ " $STAGE " == *" $(basename "$exe") "* ]]; then continue; fi
  if [ -x "$build/$exe" ]; then cp "$build/$exe" "$tmp/bin/"; else echo "prepare.sh: not staged (not built): $exe" >&2; fi
done
# The benchmark and the CLI are never run under compute-sanitizer, so their host symbol
# tables can go (~0.6 MB each). The tests keep theirs for readable sanitizer backtraces.
for exe in preduce_bench_gpu preduce; do
  if [ -f "$tmp/bin/$exe" ]; then strip "$tmp/bin/$exe"; fi
done
# Shared libraries the Ubuntu image of the GPU machine does not have: everything ldd
# resolves except the C runtime, the GCC runtime (the image's are newer) and the CUDA driver.
for exe in "$tmp"/bin/*; do
  ldd "$exe" | awk '/=> \//{print $3}'
done | sort -u | grep -vE '/(libc|libm|libdl|librt|libpthread|ld-linux[^/]*|libstdc\+\+|libgcc_s|libcuda)\.so' |
  while read -r lib; do cp -L "$lib" "$stage/lib/"; done
# One xz stream over every executable: most of their bytes (the CUDA backend's kernels, about
# 80 MB) are the same in each, and a dictionary larger than one executable finds them again
# (about 3 GB of memory to compress, 256 MiB to unpack). run.sh unpacks it (python3).
tar -C "$tmp" -cf - bin | xz -T1 --lzma2=preset=6,dict=256MiB >"$stage/bin.tar.xz"
echo "prepare.sh: staged $(ls "$tmp/bin" | wc -l) executables, $(du -sh "$tmp/bin" | cut -f1) unpacked"
du -sh "$stage"
size_kib=$(du -sk "$stage" | cut -f1)
if [ "$size_kib" -gt $((64 * 1024)) ]; then
  echo "prepare.sh: $stage is over the device tool's 64 MiB carry limit; stage fewer executables with STAGE=\"...\"" >&2
fi
