#!/usr/bin/env bash
# Here (no GPU needed): builds the CUDA configuration for sm_90 and stages what the GPU
# machine runs into build-device/ (executables + the shared libraries it lacks), small
# enough to travel with the device tool's `carry`. Then, through the device tool:
#   run(command="scripts/device/run.sh", carry=["build-device"])
# STAGE="test_multigpu preduce_bench_gpu" stages only the executables named (the whole set
# is over the carry limit of 64 MiB once every tool is built), e.g. for run.sh multigpu.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=build-gpu
stage=build-device

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPREDUCE_ENABLE_CUDA=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DPREDUCE_BUILD_TESTS=ON -DPREDUCE_BUILD_BENCH=ON -DPREDUCE_BUILD_TOOLS=ON >/dev/null
# Keep going past targets that fail (work in progress elsewhere in the tree): whatever was
# built is staged, and what is missing is named below.
cmake --build "$build" -- -k 0 || echo "prepare.sh: some targets failed to build (above); staging what was built" >&2

rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/lib"
for exe in tests/test_cuda tests/cuda/test_cuda_device tests/cuda/test_cuda_managed tests/cuda/test_cuda_only tests/cuda/test_cuda_async tests/test_frontend \
           tests/custom/test_custom_cuda tests/multigpu/test_multigpu tests/reliability/test_reliability_concurrency \
           tests/reliability/test_reliability_cuda_async bench/gpu/preduce_bench_gpu tools/preduce/preduce; do
  if [ -n "${STAGE:-}" ] && ! [[ " $STAGE " == *" $(basename "$exe") "* ]]; then continue; fi
  if [ -x "$build/$exe" ]; then cp "$build/$exe" "$stage/bin/"; else echo "prepare.sh: not staged (not built): $exe" >&2; fi
done
# The benchmark and the CLI are never run under compute-sanitizer, so their host symbol
# tables can go (~0.6 MB each): room under the device tool's carry limit. The tests keep
# theirs for readable sanitizer backtraces.
for exe in preduce_bench_gpu preduce; do
  if [ -f "$stage/bin/$exe" ]; then strip "$stage/bin/$exe"; fi
done
# Shared libraries the Ubuntu image of the GPU machine does not have: everything ldd
# resolves except the C runtime and the GCC runtime (the image's are newer).
for exe in "$stage"/bin/*; do
  ldd "$exe" | awk '/=> \//{print $3}'
done | sort -u | grep -vE '/(libc|libm|libdl|librt|libpthread|ld-linux[^/]*|libstdc\+\+|libgcc_s)\.so' |
  while read -r lib; do cp -L "$lib" "$stage/lib/"; done
du -sh "$stage"
size_kib=$(du -sk "$stage" | cut -f1)
if [ "$size_kib" -gt $((64 * 1024)) ]; then
  echo "prepare.sh: $stage is over the device tool's 64 MiB carry limit; stage fewer executables with STAGE=\"...\"" >&2
fi
