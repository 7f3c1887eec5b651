#!/usr/bin/env bash
# Regenerates docs/reference/ from the ODS (the test Docs/reference-in-sync
# fails while the committed copy differs from what the build generates).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
cmake --build "$BUILD_DIR" --target tir-doc
cp "$BUILD_DIR"/docs/*.md docs/reference/
