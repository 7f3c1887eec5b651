#!/usr/bin/env bash
# Builds the project and runs the 1024^3 fp32 matmul benchmark: tir's
# unscheduled and hand-tiled kernels beside OpenBLAS, at 1 and 2 threads.
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
exec "${BUILD_DIR:-build}/bin/tir-bench-matmul" bench "$@"
