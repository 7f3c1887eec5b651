#!/usr/bin/env bash
# Builds the project and runs the 1024^3 fp32 matmul benchmark: tir's
# unscheduled, transform-scheduled (loop primitives), block-scheduled
# (staged program, block primitives), primitives-only (unscheduled program,
# cache_read / cache_write and the block primitives) and hand-scheduled
# kernels beside OpenBLAS, at 1 and 2 threads.
#   bench/run.sh [--repeat N] [--naive-repeat N]
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh >/dev/null
./scripts/build.sh >/dev/null
# Debian's OpenBLAS 0.3.21 does not know recent Xeons and falls back to its
# generic "Prescott" kernels; on an AVX-512 CPU ask for the SkylakeX ones, so
# that the baseline is OpenBLAS at its best here (override by setting
# OPENBLAS_CORETYPE yourself).
if [ -z "${OPENBLAS_CORETYPE:-}" ] && grep -q avx512f /proc/cpuinfo; then
  export OPENBLAS_CORETYPE=SkylakeX
fi
BUILD_DIR=${BUILD_DIR:-build}
mkdir -p "$BUILD_DIR/bench"
# The unscheduled kernel scheduled by a transform script (loop primitives).
"$BUILD_DIR/bin/tir-opt" bench/matmul_naive.mlir \
  --transform-preload-library=transform-library-paths=bench/matmul_schedule.mlir \
  --transform-interpreter -o "$BUILD_DIR/bench/matmul_scheduled.mlir"
# The unscheduled kernel scheduled by a transform script of primitives
# only: cache_write / cache_read make the accumulator and the packed copy of
# B, then the block schedule's tiling.
"$BUILD_DIR/bin/tir-opt" bench/matmul_naive.mlir \
  --transform-preload-library=transform-library-paths=bench/matmul_primitives_schedule.mlir \
  --transform-interpreter -o "$BUILD_DIR/bench/matmul_primitives_scheduled.mlir"
# The staged kernel (pack, local accumulator, write back) scheduled by a
# transform script with the block primitives.
"$BUILD_DIR/bin/tir-opt" bench/matmul_staged.mlir \
  --transform-preload-library=transform-library-paths=bench/matmul_block_schedule.mlir \
  --transform-interpreter -o "$BUILD_DIR/bench/matmul_block_scheduled.mlir"
exec "$BUILD_DIR/bin/tir-bench-matmul" --naive bench/matmul_naive.mlir \
  --kernel "tir transform-scheduled (bench/matmul_schedule.mlir)=$BUILD_DIR/bench/matmul_scheduled.mlir" \
  --kernel "tir block-scheduled (bench/matmul_block_schedule.mlir)=$BUILD_DIR/bench/matmul_block_scheduled.mlir" \
  --kernel "tir primitives only (bench/matmul_primitives_schedule.mlir)=$BUILD_DIR/bench/matmul_primitives_scheduled.mlir" \
  --kernel "tir hand-scheduled (bench/matmul_tiled.mlir)=bench/matmul_tiled.mlir" \
  "$@"
