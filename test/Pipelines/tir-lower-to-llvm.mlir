// RUN: tir-opt %s --tir-lower-to-llvm | FileCheck %s
// RUN: tir-opt %s --tir-lower-to-llvm="openmp=false target-cpu=znver4" | FileCheck %s --check-prefix=SERIAL
// Every example lowers to the llvm dialect with no tir (or other) op left:
// RUN: for f in %tir_src_root/examples/*.mlir; do \
// RUN:   tir-opt --tir-lower-to-llvm $f | FileCheck %s --check-prefix=EXAMPLES \
// RUN:     --implicit-check-not=tir. --implicit-check-not=func.func \
// RUN:     --implicit-check-not=memref. --implicit-check-not=scf. || exit 1; \
// RUN: done

// The three loop kinds: parallel -> an OpenMP parallel loop, vectorized ->
// vector ops, unrolled -> no loop. The parallel body is a function of its
// own, so that the buffers stay noalias inside OpenMP's outlined loop.
// CHECK-LABEL: llvm.func @kinds(%{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr {llvm.noalias},
// CHECK:         omp.parallel
// CHECK:           omp.wsloop
// CHECK:             llvm.call @kinds_parallel0(
// CHECK:         llvm.func @_mlir_ciface_kinds(%{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr) attributes
// CHECK-LABEL: llvm.func @kinds_parallel0(%{{.+}}: i64, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr {llvm.noalias},
// CHECK:         llvm.intr.masked.load {{.+}} -> vector<16xf32>
// CHECK:         llvm.fmul {{.+}} : vector<16xf32>
// CHECK:         llvm.intr.masked.store
// SERIAL-LABEL: llvm.func @kinds
// SERIAL-NOT:    omp.
// SERIAL:        target_cpu = "znver4"
func.func @kinds(%A: memref<64x100xf32>, %B: memref<64x100xf32>) {
  tir.for %i = 0 to 64 parallel {
    tir.for %j = 0 to 100 vectorized {
      tir.block "B"(%vi = spatial(64, %i), %vj = spatial(100, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<64x100xf32>
        %b = arith.mulf %a, %a : f32
        tir.store %b, %B[%vi, %vj] : memref<64x100xf32>
      }
    }
  }
  return
}

// An unrolled loop leaves straight-line code: four stores and no branch.
// CHECK-LABEL: llvm.func @unrolled
// CHECK-NOT:     llvm.br
// CHECK-NOT:     llvm.cond_br
// CHECK-COUNT-4: llvm.store
// CHECK-NOT:     llvm.br
// CHECK-NOT:     llvm.cond_br
// CHECK:         llvm.return
func.func @unrolled(%A: memref<4xf32>) {
  tir.for %i = 0 to 4 unrolled {
    tir.block "U"(%vi = spatial(4, %i)) {
      %a = tir.load %A[%vi] : memref<4xf32>
      %b = arith.addf %a, %a : f32
      tir.store %b, %A[%vi] : memref<4xf32>
    }
  }
  return
}

// EXAMPLES: llvm.func @_mlir_ciface_
