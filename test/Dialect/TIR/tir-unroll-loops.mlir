// RUN: tir-opt %s --convert-tir-to-scf --tir-unroll-loops --canonicalize -split-input-file -verify-diagnostics | FileCheck %s

// A constant trip count: no loop left, one copy of the body per iteration
// with the loop variable folded to 0, 1, 2, 3.
// CHECK-LABEL: func.func @unroll4
// CHECK-NOT:     scf.for
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.+]] = arith.constant 3 : index
// CHECK:         memref.store %{{.+}}, %arg0[%[[C0]]]
// CHECK:         memref.store %{{.+}}, %arg0[%[[C1]]]
// CHECK:         memref.store %{{.+}}, %arg0[%[[C2]]]
// CHECK:         memref.store %{{.+}}, %arg0[%[[C3]]]
// CHECK-NOT:     scf.for
func.func @unroll4(%A: memref<4xf32>) {
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

// Nested unrolled loops: 2 x 3 copies.
// CHECK-LABEL: func.func @nested
// CHECK-NOT:     scf.for
// CHECK-COUNT-6: memref.store
// CHECK-NOT:     scf.for
func.func @nested(%A: memref<2x3xf32>) {
  tir.for %i = 0 to 2 unrolled {
    tir.for %j = 0 to 3 unrolled {
      tir.block "U"(%vi = spatial(2, %i), %vj = spatial(3, %j)) {
        %z = arith.constant 0.0 : f32
        tir.store %z, %A[%vi, %vj] : memref<2x3xf32>
      }
    }
  }
  return
}

// -----

// A trip count known only at run time: unrolled by 4 with a remainder loop.
// CHECK-LABEL: func.func @dynamic
// CHECK:         scf.for {{.+}} step %c4
// CHECK-COUNT-4:   memref.store
// CHECK:         scf.for
func.func @dynamic(%n: index, %A: memref<?xf32>) {
  // expected-remark @below {{trip count is not a constant; unrolled by 4 with a remainder loop}}
  tir.for %i = 0 to %n unrolled {
    tir.block "U"(%vi = spatial(%n, %i)) {
      %z = arith.constant 0.0 : f32
      tir.store %z, %A[%vi] : memref<?xf32>
    }
  }
  return
}
