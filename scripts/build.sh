#!/usr/bin/env bash
# Configures (once) and builds tir into build/ with clang-22, lld, Ninja and
# ccache (CMakeLists.txt sets it up), against Debian's LLVM/MLIR 22
# (libMLIR.so).
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${BUILD_DIR:-build}
# (Re)configured when new, when made before the fuzz targets were built by
# default (they serve scripts/test.sh's fuzz smoke run), or before
# CMakeLists.txt chose the compiler launcher (ccache with its base_dir at
# the checkout, which build-wheel/ shares): a launcher cached by an older
# configuration is dropped.
if [ ! -f "$BUILD_DIR/build.ninja" ] ||
   ! grep -q '^TIR_ENABLE_FUZZERS:BOOL=ON' "$BUILD_DIR/CMakeCache.txt" ||
   ! grep -q '^TIR_USE_CCACHE:BOOL' "$BUILD_DIR/CMakeCache.txt"; then
  cmake -G Ninja -S . -B "$BUILD_DIR" \
    -UCMAKE_C_COMPILER_LAUNCHER -UCMAKE_CXX_COMPILER_LAUNCHER \
    -DCMAKE_BUILD_TYPE=Release \
    -DTIR_ENABLE_FUZZERS=ON \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
    -DLLVM_USE_LINKER=lld \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit
fi
cmake --build "$BUILD_DIR" --target all tir-doc

# Make the Python package importable by Debian's python3 without PYTHONPATH:
# a .pth file in the user's site-packages lists the package and the
# extension's directories (like `pip install -e`). Only the default build
# does this: a second build folder (BUILD_DIR=...) leaves it alone.
if [ "$BUILD_DIR" = build ] && { [ -f "$BUILD_DIR/python/CMakeFiles/_tensorir.dir/build.make" ] || ls "$BUILD_DIR"/python/_tensorir*.so >/dev/null 2>&1; }; then
  site=$(/usr/bin/python3 -m site --user-site)
  if mkdir -p "$site" 2>/dev/null &&
     printf '%s\n%s\n' "$PWD/python" "$(cd "$BUILD_DIR" && pwd)/python" > "$site/tensorir.pth"; then
    :
  else
    echo "build: warning: cannot write $site/tensorir.pth; set PYTHONPATH=$PWD/python:$BUILD_DIR/python" >&2
  fi
fi
