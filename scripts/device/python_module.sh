#!/usr/bin/env bash
# Here (no GPU needed): builds the Python module for the GPU machine's interpreter, whose
# Python (3.12 there) is not this machine's, into build-device/python.tar.xz (the package
# preduce), beside what prepare.sh staged. The module is compiled from build-gpu/'s own commands for it (ninja's),
# with that interpreter's headers and pybind11 in place of this machine's, and linked against
# build-gpu/'s libraries like the module build-gpu/ has (the same compiler, so its LTO
# objects link). The headers come from the GPU machine once:
#   run(command="scripts/device/python_module.sh headers")    -> $OUT/python-headers.tar.gz
# then here:
#   scripts/device/python_module.sh build <folder with python-headers.tar.gz>
# and on the GPU machine (carry build-device):
#   scripts/device/run.sh python   (pytest over python/tests, then the --device bench rows)
set -euo pipefail
cd "$(dirname "$0")/../.."
case "${1:-}" in
headers)  # on the GPU machine: its python3's headers, pybind11's and extension suffix
  tmp=$(mktemp -d)
  mkdir -p "$tmp/python" "$tmp/pybind11"
  cp -r "$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"/. "$tmp/python/"
  cp -r "$(python3 -c 'import pybind11; print(pybind11.get_include())')"/. "$tmp/pybind11/"
  python3 -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))' >"$tmp/suffix"
  python3 --version >"$tmp/version"
  tar czf "${OUT:?}/python-headers.tar.gz" -C "$tmp" .
  cat "$tmp/version" "$tmp/suffix"
  ;;
build)  # here
  from=${2:?"give the folder holding python-headers.tar.gz"}
  build=build-gpu
  stage=build-device/python
  inc=$PWD/$stage/include
  rm -rf "$stage" && mkdir -p "$inc" "$stage/obj" "$stage/preduce"
  tar xzf "$from/python-headers.tar.gz" -C "$inc"
  suffix=$(cat "$inc/suffix")
  cmake --build "$build" --target preduce_python >/dev/null  # its objects' commands are current
  target=$(cd "$build/python/preduce" && ls _preduce.*.so)
  obj=$PWD/$stage/obj
  objects=()
  while IFS= read -r line; do
    case "$line" in
    *preduce_python.dir/src/*.cpp.o\ -MF*)
      out=$(sed -E 's/.* -o (python\/CMakeFiles\/preduce_python\.dir\/src\/[a-z_]+\.cpp\.o) .*/\1/' <<<"$line")
      o="$obj/$(basename "$out")"
      objects+=("$o")
      # This machine's Python headers out, the GPU machine's (and its pybind11) in.
      line=$(sed -E "s| -isystem /usr/include/python3\.[0-9]+| -isystem $inc/pybind11 -isystem $inc/python|; s| -o $out | -o $o |; s| -MD -MT [^ ]+ -MF [^ ]+||" <<<"$line")
      (cd "$build" && eval "$line") &
      ;;
    *"-o python/preduce/$target "*) link=$line ;;
    esac
  done < <(ninja -C "$build" -t commands "python/preduce/$target")
  wait
  for o in "${objects[@]}"; do [ -f "$o" ] || { echo "python_module.sh: $o was not built" >&2; exit 1; }; done
  link=${link#": && "}
  link=${link%" && :"}
  for o in "${objects[@]}"; do link=$(sed -E "s| python/CMakeFiles/preduce_python\.dir/src/$(basename "$o") | $o |" <<<"$link"); done
  link=$(sed -E "s| -o python/preduce/$target | -o $PWD/$stage/preduce/_preduce$suffix |" <<<"$link")
  (cd "$build" && eval "$link")
  cp python/preduce/*.py "$stage/preduce/"
  echo "python_module.sh: $stage/preduce/_preduce$suffix for $(cat "$inc/version")"
  rm -rf "$stage/obj" "$stage/include"
  # Packed like prepare.sh's executables (about a seventh of the size), for the carry limit.
  tar cJf build-device/python.tar.xz -C build-device python && rm -rf "$stage"
  ;;
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
  echo "usage: python_module.sh carry | headers (on the GPU machine) | build <folder with python-headers.tar.gz> (here)" >&2
  exit 2
  ;;
esac
