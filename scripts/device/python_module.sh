#!/usr/bin/env bash
# Here (no GPU needed): packs the Python module of build-gpu/ with what it runs on, for the
# GPU machine, whose Python (3.12 there) is not this machine's and has none of its packages:
# this machine's interpreter (Debian's python3.11, its standard library less what the tests
# never import), NumPy, pytest and the shared libraries they name that a bare Ubuntu lacks,
# into build-device/python.tar.xz beside what prepare.sh staged (run prepare.sh first: it
# starts build-device/ afresh). Then on the GPU machine (carry build-device):
#   scripts/device/run.sh python   (pytest over python/tests, then the --device bench rows)
set -euo pipefail
cd "$(dirname "$0")/../.."
case "${1:-}" in
carry)  # here: this machine's interpreter (Debian's python3.11), NumPy and pytest, with build-gpu/'s module
  stage=build-device/python
  rm -rf "$stage" && mkdir -p "$stage/root/usr/bin" "$stage/root/usr/lib" "$stage/site" "$stage/lib"
  py=$(readlink -f /usr/bin/python3)
  version=$(basename "$py")  # python3.11
  cp "$py" "$stage/root/usr/bin/python3"
  # The standard library, less what the tests and the benchmark never import.
  tar cf - -C /usr/lib --exclude="$version/test" --exclude="$version/idlelib" --exclude="$version/tkinter" \
    --exclude="$version/ensurepip" --exclude="$version/lib2to3" --exclude='__pycache__' --exclude="$version/config-*" \
    --exclude='_tkinter*' --exclude='_ssl*' --exclude='_hashlib*' --exclude='_sqlite3*' --exclude='_dbm*' --exclude='_gdbm*' \
    "$version" |
    tar xf - -C "$stage/root/usr/lib"
  for p in numpy _pytest pytest pluggy iniconfig packaging attr attrs py.py; do
    [ -e "/usr/lib/python3/dist-packages/$p" ] && cp -r "/usr/lib/python3/dist-packages/$p" "$stage/site/"
  done
  find "$stage/site" -name '__pycache__' -prune -exec rm -rf {} +
  rm -rf "$stage/site/numpy/tests" "$stage/site/numpy/"*/tests
  cp -r build-gpu/python/preduce "$stage/site/"
  # The shared libraries they name that a bare Ubuntu lacks (glibc's and GCC's own are there).
  { find "$stage" -name '*.so*' -o -path '*/usr/bin/python3' | xargs ldd 2>/dev/null || true; } | awk '/=> \//{print $3}' | sort -u |
    grep -vE '/(libc|libm|libdl|libpthread|librt|libgcc_s|libstdc\+\+|ld-linux[^/]*)\.so' |
    while read -r lib; do cp -L "$lib" "$stage/lib/"; done
  tar cJf build-device/python.tar.xz -C build-device python && rm -rf "$stage"
  echo "python_module.sh: build-device/python.tar.xz ($(du -h build-device/python.tar.xz | cut -f1)): $version, NumPy, pytest, the module"
  ;;
*)
  echo "usage: python_module.sh carry" >&2
  exit 2
  ;;
esac
