// RUN: tir-opt %s --tir-outline-parallel-loops | FileCheck %s

// The body of the outermost scf.parallel moves into a private function;
// constants are cloned in, and memref parameters that are distinct buffers
// are recorded for noalias (the positions of their aligned pointers once
// memrefs expand: A's at 2, after the induction variable and A's
// allocated pointer; B's at 2 + 5 + 1 = 8, after the index %n).
// CHECK-LABEL: func.func @two_buffers
// CHECK:         scf.parallel (%[[I:.+]]) =
// CHECK-NEXT:      func.call @two_buffers_parallel0(%[[I]], %arg1, %arg0, %arg2) : (index, memref<64xf32>, index, memref<64xf32>) -> ()
// CHECK-NEXT:      scf.reduce
// CHECK:       func.func private @two_buffers_parallel0(%{{.+}}: index, %{{.+}}: memref<64xf32>, %{{.+}}: index, %{{.+}}: memref<64xf32>) attributes {tir.noalias_params = array<i64: 2, 8>}
// CHECK:         arith.constant 2.000000e+00 : f32
// CHECK:         memref.load
// CHECK:         memref.store
func.func @two_buffers(%n: index, %A: memref<64xf32>, %B: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    %a = memref.load %A[%i] : memref<64xf32>
    %b = arith.mulf %a, %two : f32
    %j = arith.remui %i, %n : index
    memref.store %b, %B[%j] : memref<64xf32>
  }
  return
}

// A view of a buffer and the buffer itself reach the body: neither is
// recorded as noalias.
// CHECK-LABEL: func.func private @view_parallel0
// CHECK-NOT:     tir.noalias_params
// CHECK-SAME:    {
func.func @view(%A: memref<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %flat = memref.collapse_shape %A [[0, 1]] : memref<8x8xf32> into memref<64xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %a = memref.load %flat[%i] : memref<64xf32>
    memref.store %a, %A[%i, %i] : memref<8x8xf32>
  }
  return
}
