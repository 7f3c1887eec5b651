#!/usr/bin/env bash
# Sets up, builds and runs the main demo: a TensorIR matmul written in the
# tir dialect is parsed and verified, its read/write regions are inferred,
# it is printed in the custom and the generic form, and a transform script
# finds its block and loops as TVM's Schedule.get_block/get_loops do;
# then it is scheduled, lowered, built and run, scheduled and not.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh
./scripts/build.sh
BUILD_DIR=${BUILD_DIR:-build}
TIR_OPT="$BUILD_DIR/bin/tir-opt"

echo
echo "== examples/matmul.mlir, parsed, verified and printed by tir-opt"
"$TIR_OPT" examples/matmul.mlir

echo
echo "== after --tir-infer-access-regions (TVMScript's T.reads / T.writes)"
"$TIR_OPT" examples/matmul.mlir --tir-infer-access-regions

echo
echo "== generic form (round-trips back to the same IR)"
"$TIR_OPT" examples/matmul.mlir -mlir-print-op-generic | sed -n 1,12p
echo "   ..."

echo
echo "== a schedule query: transform.tir.get_block / get_loops"
"$TIR_OPT" examples/matmul.mlir \
  --transform-preload-library=transform-library-paths=examples/schedule/get_loops.mlir \
  --transform-interpreter --mlir-print-op-on-diagnostic=false -o /dev/null

echo
echo "== a schedule: split, reorder, parallel, unroll, vectorize (examples/schedule/tile_matmul.mlir)"
mkdir -p "$BUILD_DIR/demo"
"$TIR_OPT" examples/matmul.mlir \
  --transform-preload-library=transform-library-paths=examples/schedule/tile_matmul.mlir \
  --transform-interpreter -o "$BUILD_DIR/demo/matmul_scheduled.mlir"
sed -n 3,10p "$BUILD_DIR/demo/matmul_scheduled.mlir"
echo "   ..."

echo
echo "== a verifier diagnostic: a block body that uses a loop variable"
"$TIR_OPT" examples/errors/loop_var_in_body.mlir --mlir-print-op-on-diagnostic=false -o /dev/null || true

echo
echo "== lowered to the llvm dialect: --tir-lower-to-llvm (first lines)"
"$TIR_OPT" examples/vector_add.mlir --tir-lower-to-llvm | sed -n 1,8p
echo "   ..."

echo
echo "== built and run: tir-run (B = A + 1 on seeded random A)"
"$BUILD_DIR/bin/tir-run" examples/vector_add.mlir --print
"$BUILD_DIR/bin/tir-run" examples/matmul.mlir --time --repeat 10 --output-dir "$BUILD_DIR/demo"
cp "$BUILD_DIR/demo/C.npy" "$BUILD_DIR/demo/C.unscheduled.npy"
"$BUILD_DIR/bin/tir-run" "$BUILD_DIR/demo/matmul_scheduled.mlir" --time --repeat 10 --output-dir "$BUILD_DIR/demo"
if cmp -s "$BUILD_DIR/demo/C.npy" "$BUILD_DIR/demo/C.unscheduled.npy"; then
  echo "   scheduled and unscheduled matmul wrote the same bits"
else
  echo "   scheduled and unscheduled matmul DIFFER"
fi

echo
echo "== a call that does not match the signature"
"$BUILD_DIR/bin/tir-run" examples/matmul.mlir --shape A=64x128 2>&1 || true

echo
echo "== from Python: TVM's Blitz course with import tensorir as tvm (examples/python/blitz.py), last lines"
/usr/bin/python3 examples/python/blitz.py | tail -12
