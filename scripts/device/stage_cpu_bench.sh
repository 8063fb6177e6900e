#!/usr/bin/env bash
# Here: stages a CPU benchmark build for the GPU machine's 16 cores, which have none of our
# Debian libraries (Google Benchmark, TBB, a Kokkos prefix's libraries):
#
#   scripts/device/stage_cpu_bench.sh BUILD_DIR [STAGE_DIR]
#
# copies BUILD_DIR/bench/preduce_bench into STAGE_DIR/bin (default build-device-cpu) and the
# shared libraries ldd names into STAGE_DIR/lib, except the C and GCC runtimes, which the
# GPU machine's image has in newer versions. Then, through the device tool, with
# carry ["build-device-cpu"]:
#   LD_LIBRARY_PATH=build-device-cpu/lib OMP_NUM_THREADS=16 build-device-cpu/bin/preduce_bench ...
# For example kokkos on Kokkos 4's OpenMP space against openmp, on 16 cores:
#   scripts/kokkos/build.sh "$(scripts/kokkos/build.sh --find-tarball)" build-kokkos4/kokkos-openmp openmp
#   cmake -S . -B build-k4-bench -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT=$PWD/build-kokkos4/kokkos-openmp \
#     -DPREDUCE_ENABLE_CUDA=OFF -DPREDUCE_ENABLE_MPI=OFF -DPREDUCE_BUILD_TESTS=OFF -DPREDUCE_BUILD_TOOLS=OFF
#   cmake --build build-k4-bench --target preduce_bench && scripts/device/stage_cpu_bench.sh build-k4-bench
#   (on the GPU machine, carry ["build-device-cpu"])
#   cd build-device-cpu && LD_LIBRARY_PATH=lib OMP_NUM_THREADS=16 KOKKOS_NUM_THREADS=16 OMP_PROC_BIND=spread \
#     OMP_PLACES=threads bin/preduce_bench --sizes=26:26 \
#     --benchmark_filter='^(reduce/(kokkos|openmp)/|anchor/read_probe/threads:16/)' --benchmark_repetitions=3 \
#     --benchmark_report_aggregates_only=true --benchmark_out=$OUT/cpu16.json --benchmark_out_format=json
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:?usage: $0 BUILD_DIR [STAGE_DIR]}
stage=${2:-build-device-cpu}
exe=$build/bench/preduce_bench
[ -x "$exe" ] || { echo "stage_cpu_bench.sh: no $exe (build the preduce_bench target first)" >&2; exit 2; }
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/lib"
cp "$exe" "$stage/bin/"
strip "$stage/bin/preduce_bench"
ldd "$exe" | awk '/=> \//{print $3}' |
  grep -vE '/(libc|libm|libdl|librt|libpthread|ld-linux[^/]*|libstdc\+\+|libgcc_s)\.so' |
  while read -r lib; do cp -L "$lib" "$stage/lib/"; done
du -sh "$stage"
ls "$stage/lib"
