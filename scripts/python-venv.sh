#!/usr/bin/env bash
# Makes $BUILD_DIR/venv (default build/venv): a virtual environment of
# Debian's python3 with what a pip user has (python/requirements-venv.txt:
# pip's numpy 2, torch 2, pytest), in which the package built into
# $BUILD_DIR imports as it does for Debian's python3 (a .pth file lists the
# package and the extension's folders). Kept between runs: it is made again
# only when the requirements change. Prints the venv's python.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
venv="$BUILD_DIR/venv"
requirements=python/requirements-venv.txt
stamp="$venv/.requirements"

if [ ! -x "$venv/bin/python" ] || ! cmp -s "$requirements" "$stamp"; then
  echo "python-venv: installing $(grep -v '^#' "$requirements" | tr '\n' ' ')into $venv" >&2
  rm -rf "$venv"
  /usr/bin/python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    -r "$requirements" >&2
  cp "$requirements" "$stamp"
fi
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
printf '%s\n%s\n' "$PWD/python" "$(cd "$BUILD_DIR" && pwd)/python" > "$site/tensorir.pth"
echo "$PWD/$venv/bin/python"
