// RUN: tir-opt %s --convert-tir-to-scf --tir-unroll-loops=max-unrolled-ops=8 -split-input-file -verify-diagnostics | FileCheck %s

// The pass option sets the default limit of full unrolling (here 8
// operations); a loop's "unroll_limit" annotation overrides it.

func.func @over_the_option(%A: memref<4xf32>) {
  // expected-error @below {{unrolling this loop fully (4 iterations of 3 operations = 12 operations) exceeds the limit of 8 operations}}
  tir.for %i = 0 to 4 unrolled {
    tir.block "U"(%vi = spatial(4, %i)) {
      %a = tir.load %A[%vi] : memref<4xf32>
      %b = arith.addf %a, %a : f32
      tir.store %b, %A[%vi] : memref<4xf32>
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @annotation_lifts_it
// CHECK-NOT:     scf.for
// CHECK-COUNT-4: arith.addf
func.func @annotation_lifts_it(%A: memref<4xf32>) {
  tir.for %i = 0 to 4 unrolled annotations {unroll_limit = 0 : i64} {
    tir.block "U"(%vi = spatial(4, %i)) {
      %a = tir.load %A[%vi] : memref<4xf32>
      %b = arith.addf %a, %a : f32
      tir.store %b, %A[%vi] : memref<4xf32>
    }
  }
  return
}
