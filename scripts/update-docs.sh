#!/usr/bin/env bash
# Regenerates docs/reference/ from the ODS (the test Docs/reference-in-sync
# fails while the committed copy differs from what the build generates) and
# docs/bad-input.md from the bad-input cases (python/tests/bad_input_cases_*.py;
# test_bad_input.py::test_doc_is_up_to_date fails while it differs).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
cmake --build "$BUILD_DIR" --target tir-doc
cp "$BUILD_DIR"/docs/*.md docs/reference/
/usr/bin/python3 python/tests/test_bad_input.py --write-doc
