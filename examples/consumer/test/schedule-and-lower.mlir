// RUN: consumer-opt %tir_examples/matmul.mlir --transform-preload-library=transform-library-paths=%tir_examples/schedule/tile_matmul.mlir --transform-interpreter | FileCheck %s --check-prefix=SCHED
// RUN: consumer-opt %tir_examples/matmul.mlir --transform-preload-library=transform-library-paths=%tir_examples/schedule/tile_matmul.mlir --transform-interpreter --tir-lower-to-llvm | FileCheck %s --check-prefix=LLVM

// consumer-opt, built against the installed tree, schedules a tir program
// with transform.tir (tiled: more loops around the block) and lowers it
// with tir's pipeline (the parallel loop outlined for OpenMP).
// SCHED:     tir.for
// SCHED:     tir.for
// SCHED:     tir.for
// SCHED:     tir.for
// SCHED:     tir.block "C"
// LLVM:      llvm.func @matmul
// LLVM:      llvm.func @matmul_parallel0
// LLVM-NOT:  tir.
