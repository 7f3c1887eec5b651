#!/usr/bin/env bash
# Builds the project and runs the 1024^3 fp32 matmul benchmark: tir's
# unscheduled, transform-scheduled (loop primitives), block-scheduled
# (staged program, block primitives), primitives-only (unscheduled program,
# cache_read / cache_write and the block primitives) and hand-scheduled
# kernels beside OpenBLAS (its core type chosen by measuring) and the
# host's FMA peak (measured), at 1 and 2 threads.
#   bench/run.sh [--repeat N] [--naive-repeat N]
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh >/dev/null
./scripts/build.sh >/dev/null
BUILD_DIR=${BUILD_DIR:-build}
# The host's FMA peak, measured (tir-fma-peak: zmm and ymm where AVX-512
# is there; the faster is the peak).
peak=$("$BUILD_DIR/bin/tir-fma-peak")
echo "$peak"
fma_peak=$(echo "$peak" | awk '$3 > best1 {best1 = $3; best2 = $4} END {print best1 "," best2}')
# OpenBLAS at its best here, its core type chosen by measuring: Debian's
# 0.3.21 may not know a recent CPU and fall back to slower kernels, and on
# some CPUs another core type's kernels are faster than the detected one's
# (override by setting OPENBLAS_CORETYPE yourself).
if [ -z "${OPENBLAS_CORETYPE:-}" ] && [ -x "$BUILD_DIR/bin/tir-blas-probe" ]; then
  best=0 choice=
  for type in "" Haswell SkylakeX Cooperlake Zen; do
    line=$(OPENBLAS_CORETYPE=$type OPENBLAS_NUM_THREADS=1 "$BUILD_DIR/bin/tir-blas-probe")
    echo "OpenBLAS core type '${type:-detected}': $line"
    speed=$(echo "$line" | awk '{print $2}')
    if awk "BEGIN {exit !($speed > $best)}"; then best=$speed choice=$type; fi
  done
  echo "OpenBLAS core type chosen: '${choice:-detected}' ($best GFLOP/s, 1 thread)"
  [ -n "$choice" ] && export OPENBLAS_CORETYPE=$choice
fi
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
  --fma-peak "$fma_peak" "$@"
