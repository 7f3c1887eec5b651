#!/usr/bin/env bash
# Installs the build (cmake --install) into $BUILD_DIR/install, then
# configures and builds examples/consumer against that installed tree (not
# the build tree: find_package(TensorIR) with only the prefix given) and
# runs its tests (examples/consumer/test: the consumer's own tool scheduling
# and lowering tir, its TOSA front end into tir, the installed tir-opt,
# plugin and Python package).
#
# With TIR_PREFIX=<dir> the tree there is used instead of a fresh install
# (scripts/package-check.sh: the Debian package installed by dpkg), the
# consumer built in $CONSUMER_BUILD.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=$(cd "${BUILD_DIR:-build}" && pwd)
LLVM_BIN=/usr/lib/llvm-22/bin
consumer=${CONSUMER_BUILD:-$BUILD_DIR/consumer}

if [ -n "${TIR_PREFIX:-}" ]; then
  prefix=$TIR_PREFIX
else
  prefix=$BUILD_DIR/install
  # Installed under one prefix, then moved: the tree must not depend on
  # where it was installed (relocatable).
  rm -rf "$prefix" "$prefix.staged"
  cmake --install "$BUILD_DIR" --prefix "$prefix.staged" > "$BUILD_DIR/install.log"
  mv "$prefix.staged" "$prefix"
  echo "installed into $prefix.staged, moved to $prefix ($(du -sh "$prefix" | cut -f1))"
fi
# A fresh configuration each time: find_package must find this tree.
rm -rf "$consumer"
cmake -G Ninja -S examples/consumer -B "$consumer" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER=clang++-22 -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld \
  -DCMAKE_PREFIX_PATH="$prefix" -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
  > "$consumer.configure.log" || { cat "$consumer.configure.log"; exit 1; }
grep "TensorIR .* from" "$consumer.configure.log" || true
cmake --build "$consumer"
"$LLVM_BIN/lit" -v examples/consumer/test \
  --param consumer_bin="$consumer" --param tir_prefix="$prefix" \
  --param llvm_bin="$LLVM_BIN"
