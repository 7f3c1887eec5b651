#!/usr/bin/env bash
# `pip install .` as a user does it: a fresh virtual environment of Debian's
# python3 with pip's numpy 2, the package built by scikit-build-core over
# the project's CMake against the system's LLVM/MLIR (pyproject.toml; its
# build folder build-wheel/ shares ccache's objects with build/), installed
# as a wheel; then, with the package from the wheel, a function is built, run and
# exported with it and the export loaded by tir_runtime
# (examples/consumer/test/run_installed.py).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=$(cd "${BUILD_DIR:-build}" && pwd)
venv=$BUILD_DIR/wheel-venv
log=$BUILD_DIR/wheel-check.log

rm -rf "$venv"
/usr/bin/python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
  "$(grep '^numpy' python/requirements-venv.txt)"
start=$(date +%s)
if ! "$venv/bin/python" -m pip install --disable-pip-version-check -v . > "$log" 2>&1; then
  tail -n 60 "$log"
  echo "wheel-check: pip install . failed (log: $log)"
  exit 1
fi
echo "wheel-check: pip install . took $(( $(date +%s) - start )) s" \
     "($(grep -o 'Successfully installed.*' "$log" | tail -n 1))"
# Run from a folder holding no package: tensorir must come from the wheel
# (checked below), not from the checkout.
elsewhere=$BUILD_DIR/wheel-run
rm -rf "$elsewhere" && mkdir -p "$elsewhere"
out=$(cd "$elsewhere" && "$venv/bin/python" "$OLDPWD/examples/consumer/test/run_installed.py")
echo "$out"
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
grep -qx "package $site/tensorir" <<< "$out" ||
  { echo "wheel-check: the package did not come from the wheel"; exit 1; }
grep -qx "computed \[1. 2. 3. 4. 5. 6. 7. 8.\]" <<< "$out" &&
  grep -qx "runtime only \[1. 2. 3. 4. 5. 6. 7. 8.\]" <<< "$out" ||
  { echo "wheel-check: wrong results"; exit 1; }
echo "wheel-check: ok"
