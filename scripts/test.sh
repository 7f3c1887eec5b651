#!/usr/bin/env bash
# Sets up, builds and runs every test: the conformance run of TVM's own
# tests (when ../shared/tvm-tests is there: schedule, meta_schedule, and
# the relax files again under the venv's python, which has torch 2), lit (C++ tools, IR,
# executed code), then pytest (the Python package). Each prints its own
# summary, pytest's last; the script fails if lit or pytest fails, or if a
# conformance file passes fewer tests than its floor in
# test/tvm-conformance-floor.txt (scripts/check-conformance.py --update
# raises the floors). The C/C++ sources must follow .clang-format
# (scripts/check-format.sh). Reliability checks (docs/reliability.md): a
# fuzz smoke run of the four libFuzzer targets over the seed corpus (about
# a minute), a seeded slice of the differential schedule tester (about two
# minutes), and the bad-input suite (part of pytest). Integration: the build
# is installed and examples/consumer, another project's tool, is built
# against the installed tree and run (scripts/consumer-check.sh, about a
# minute); the Debian package (cpack) is installed by dpkg into an empty root
# and the consumer built against that (scripts/package-check.sh, a minute).
# Python ecosystems: pytest runs twice, under Debian's python3 (numpy 1.24,
# torch 1.13) and under a virtual environment with pip's numpy 2 and torch 2
# (scripts/python-venv.sh, made once into $BUILD_DIR/venv), and `pip
# install .` builds and installs the package into a fresh virtual
# environment, where a function is built and run (scripts/wheel-check.sh,
# a minute or two with the build's objects in ccache). The layers of
# docs/layering.md are checked by lit (test/Layering).
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
./scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
status=0
echo "== a virtual environment with pip's numpy 2 and torch 2 (scripts/python-venv.sh)"
venv_python=$(BUILD_DIR=$BUILD_DIR ./scripts/python-venv.sh) || status=1
./scripts/check-format.sh || status=1
if [[ -f ../shared/tvm-tests/run.sh ]]; then
  # Its failures are counted, not fatal: the floors decide.
  reports=${TMPDIR:-/tmp}/tir-conformance
  echo "== TVM v0.23 tests (../shared/tvm-tests/run.sh)"
  TVM_TESTS_OUT=$reports/all bash ../shared/tvm-tests/run.sh || true
  junits=(--junit "$reports/all/junit.xml")
  if [ -n "${venv_python:-}" ]; then
    # The relax files need torch >= 2: the venv's python runs them again.
    echo "== TVM v0.23 relax tests under the venv's python (run.sh --suite relax)"
    PYTHON=$venv_python TVM_TESTS_OUT=$reports/relax bash ../shared/tvm-tests/run.sh --suite relax \
      || true
    junits+=(--junit "$reports/relax/junit.xml")
  fi
  /usr/bin/python3 scripts/check-conformance.py "${junits[@]}" || status=1
fi
echo "== fuzz smoke run (scripts/fuzz.sh --smoke)"
BUILD_DIR=$BUILD_DIR ./scripts/fuzz.sh --smoke --no-build || status=1
echo "== differential schedule tester, seeded slice (tools/schedule-diff)"
PYTHONPATH=$PWD/python:$PWD/$BUILD_DIR/python /usr/bin/python3 \
  tools/schedule-diff/schedule_diff.py --seed 12 --time-limit 110 --jobs 2 \
  --quiet --max-shrinks 1 --shrink-time 30 || status=1
echo "== the installed tree and an out-of-tree consumer (scripts/consumer-check.sh)"
BUILD_DIR=$BUILD_DIR ./scripts/consumer-check.sh || status=1
echo "== the Debian package, installed by dpkg into an empty root (scripts/package-check.sh)"
BUILD_DIR=$BUILD_DIR ./scripts/package-check.sh || status=1
echo "== pip install . into a fresh virtual environment (scripts/wheel-check.sh)"
BUILD_DIR=$BUILD_DIR ./scripts/wheel-check.sh || status=1
/usr/lib/llvm-22/bin/lit -v "$BUILD_DIR/test" "$BUILD_DIR/unittests" || status=1
if [ -n "${venv_python:-}" ]; then
  echo "== pytest under $venv_python ($("$venv_python" -c 'import numpy, torch; print("numpy", numpy.__version__, "torch", torch.__version__)'))"
  TIR_BUILD_DIR=$BUILD_DIR "$venv_python" -m pytest -q -ra python/tests || status=1
fi
echo "== pytest under Debian's python3"
TIR_BUILD_DIR=$BUILD_DIR /usr/bin/python3 -m pytest -v -ra python/tests || status=1
exit $status
