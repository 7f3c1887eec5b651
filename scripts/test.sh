#!/usr/bin/env bash
# Sets up, builds and runs every test: lit (C++ tools, IR, executed code),
# then pytest (the Python package). Each prints its own summary; the script
# fails if either fails.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
./scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
status=0
/usr/lib/llvm-22/bin/lit -v "$BUILD_DIR/test" || status=1
/usr/bin/python3 -m pytest -v -ra python/tests || status=1
exit $status
