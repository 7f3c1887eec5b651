#!/usr/bin/env bash
# Builds tir with AddressSanitizer + UndefinedBehaviorSanitizer into
# build-san/ (BUILD_DIR overrides) and runs lit and pytest under them; the
# run is clean when both pass with no sanitizer report (any report fails
# the test it happens in). The same build holds the libFuzzer targets
# (tools/tir-fuzz, scripts/fuzz.sh): every tir library is also compiled
# with -fsanitize=fuzzer-no-link (coverage counters, no libFuzzer main),
# which the ordinary tools link and run with unchanged.
#
#   scripts/sanitize.sh               configure (once), build, lit, pytest
#   scripts/sanitize.sh --build-only  configure (once) and build
#   scripts/sanitize.sh --lit-only / --pytest-only
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${BUILD_DIR:-build-san}
JOBS=${JOBS:-2}
mode=${1:-all}
case "$mode" in
  all|--build-only|--lit-only|--pytest-only) ;;
  *) echo "usage: $0 [--build-only|--lit-only|--pytest-only]" >&2; exit 2 ;;
esac

LLVM_BIN=/usr/lib/llvm-22/bin
ASAN_RT=$("$LLVM_BIN/clang" -print-file-name=libclang_rt.asan-x86_64.so)
if [[ ! -f "$ASAN_RT" ]]; then
  echo "sanitize: $ASAN_RT is missing (apt-get install libclang-rt-22-dev)" >&2
  exit 1
fi

# Configured like scripts/build.sh, plus: RelWithDebInfo at -O1 -g (readable
# stacks at a bearable speed) with -DNDEBUG as Debian's libMLIR.so was built
# (MLIR's headers call assertion-only functions that libMLIR.so does not
# export, e.g. transform::detail::checkImplementsTransformOpInterface), and
# LLVM's own sanitizer switches, which add -fsanitize=address
# -fsanitize=undefined -fno-omit-frame-pointer (LLVM_USE_SANITIZER),
# -fsanitize=fuzzer-no-link (LLVM_USE_SANITIZE_COVERAGE), and drop
# -Wl,-z,defs (the shared libraries leave the sanitizer runtime's symbols to
# the executable or the preloaded runtime). UBSan checks stay recoverable at
# compile time; UBSAN_OPTIONS below makes every report fatal. Executables
# link clang's shared sanitizer runtime (-shared-libsan, found through their
# rpath) rather than a static copy: Python runs with that same runtime
# preloaded, and the tools that Python starts (tir-opt, tir-run) inherit the
# preload; ASan refuses a preloaded runtime next to a static one. (The
# fuzz targets link it statically: tools/tir-fuzz/CMakeLists.txt.)
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g -DNDEBUG" \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g -DNDEBUG" \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
    -DLLVM_USE_LINKER=lld \
    "-DCMAKE_EXE_LINKER_FLAGS=-shared-libsan -Wl,-rpath,$(dirname "$ASAN_RT")" \
    "-DLLVM_USE_SANITIZER=Address;Undefined" \
    "-DLLVM_UBSAN_FLAGS=-fsanitize=undefined" \
    -DLLVM_USE_SANITIZE_COVERAGE=ON \
    -DTIR_ENABLE_FUZZERS=ON \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT="$LLVM_BIN/lit"
fi
if [[ "$mode" == all || "$mode" == --build-only ]]; then
  ninja -C "$BUILD_DIR" -j"$JOBS" all tir-doc
fi
[[ "$mode" == --build-only ]] && exit 0

# Runtime options, for every process below:
# - print_stacktrace=1: a UBSan report names the call path, not just a line.
# - halt_on_error=1: the first UBSan report ends the process with an error,
#   so the test that triggered it fails (a report is never just a log line).
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# ASan reports end the process with exit code 1, failing the test. Options:
# - allow_user_poisoning=0: LLVM's BumpPtrAllocator (llvm/Support/
#   Allocator.h, inlined into every user) poisons a new slab in code compiled
#   with ASan and unpoisons each allocation from it; libMLIR.so is not
#   instrumented, so its own inlined copies allocate from slabs our copies
#   poisoned (the uniquer of a tir attribute, say) without unpoisoning, and
#   every such write is reported as use-after-poison. Manual poisoning is
#   off; ASan's own checks (heap, stack, globals, use-after-free) stay.
# - detect_leaks=1 (the default on Linux) for the tools: a leak in a tir
#   executable is a report like any other.
SAN_ASAN_OPTIONS=allow_user_poisoning=0
export ASAN_OPTIONS=${ASAN_OPTIONS:-$SAN_ASAN_OPTIONS:detect_leaks=1}
export ASAN_SYMBOLIZER_PATH=$LLVM_BIN/llvm-symbolizer
export UBSAN_SYMBOLIZER_PATH=$LLVM_BIN/llvm-symbolizer

# Every report also goes to a file under $REPORTS (log_path): a test that
# expects a tool to fail (`not tir-opt ...`, pytest.raises around a
# subprocess) would otherwise pass over a report that ended the tool. The
# run fails when any report was written, and prints them.
REPORTS=$PWD/$BUILD_DIR/sanitizer-reports
rm -rf "$REPORTS" && mkdir -p "$REPORTS"
UBSAN_OPTIONS="$UBSAN_OPTIONS:log_path=$REPORTS/ubsan"
ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$REPORTS/asan"

status=0
if [[ "$mode" == all || "$mode" == --lit-only ]]; then
  # The tools link the sanitizer runtime statically; nothing is preloaded
  # (a preloaded runtime next to a linked one is refused by ASan).
  "$LLVM_BIN/lit" -v "$BUILD_DIR/test" "$BUILD_DIR/unittests" || status=1
fi

if [[ "$mode" == all || "$mode" == --pytest-only ]]; then
  # Debian's python3 is not instrumented, the extension is: the shared ASan
  # runtime (which carries UBSan's) is preloaded so that it comes first and
  # intercepts malloc before the interpreter starts. Options for Python:
  # - detect_leaks=0: CPython does not free its interned objects, arenas
  #   and module state at exit, by design; LeakSanitizer would report them
  #   as leaks of the interpreter, not of tir.
  # The subprocesses the tests start inherit the preload: Python itself
  # (it imports the extension) and the tools of this build, which the tests
  # find through TIR_BUILD_DIR (linked to the same shared runtime).
  LD_PRELOAD="$ASAN_RT" \
  ASAN_OPTIONS=${PY_ASAN_OPTIONS:-$SAN_ASAN_OPTIONS:detect_leaks=0}:log_path=$REPORTS/asan \
  PYTHONPATH="$PWD/python:$PWD/$BUILD_DIR/python${PYTHONPATH:+:$PYTHONPATH}" \
  TIR_BUILD_DIR="$PWD/$BUILD_DIR" \
    /usr/bin/python3 -m pytest -v -ra python/tests || status=1
fi

if compgen -G "$REPORTS/*" >/dev/null; then
  echo "sanitize: sanitizer reports (in $REPORTS):" >&2
  for report in "$REPORTS"/*; do
    echo "== $report" >&2
    cat "$report" >&2
  done
  status=1
else
  echo "sanitize: no sanitizer report"
fi
exit $status
