#!/usr/bin/env bash
# Installs the Debian 12 packages preduce builds, tests and benchmarks with, skipping
# those already present. Root or sudo; apt-get update runs only when something is missing.
set -euo pipefail

packages=(
  g++ cmake ninja-build python3        # toolchain; python3 drives the CLI tests and bench/ratios.py
  catch2                               # tests (Catch2 2.13)
  libbenchmark-dev libtbb-dev          # bench/ (Google Benchmark; TBB for std::execution anchors)
  libcli11-dev libfmt-dev nlohmann-json3-dev  # the preduce command-line program
  libssl-dev                           # its SHA-256 of many-results runs (OpenSSL's EVP)
  libtrilinos-kokkos-dev               # Kokkos backend (Kokkos 3.4.1, Serial)
  python3-matplotlib                   # bench/plot.py (PNG/SVG plots of the benchmark JSON)
  pybind11-dev python3-dev python3-numpy python3-pytest  # the Python module (python/) and its pytest suite
  libopenmpi-dev openmpi-bin           # preduce::mpi and its mpirun tests
  clang libclang-rt-dev libomp-dev llvm  # scripts/ci/fuzz.sh: libFuzzer (only recommended by clang), OpenMP for clang, llvm-symbolizer
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
