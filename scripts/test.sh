#!/usr/bin/env bash
# Sets up, builds and runs every test. The last lines are lit's summary.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
./scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
/usr/lib/llvm-22/bin/lit -v "$BUILD_DIR/test"
