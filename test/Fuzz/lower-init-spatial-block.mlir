// RUN: tir-opt %s --tir-lower-init | FileCheck %s
// RUN: tir-opt %s --convert-tir-to-scf | FileCheck %s --check-prefix=SCF

// Found by tir-fuzz-lower (a seed from test/Dialect/TIR/tensorir-rules.mlir):
// a tir.init in a block without reduce variables (rfactor's output) made
// lowerInit build an scf.if on a null condition, a segfault. As in TVM's
// LowerInitBlock, the condition is then true: the init runs before the body
// in every iteration.
// CHECK-LABEL: func.func @init_in_spatial_block
// CHECK:         tir.block "B"(%[[VI:.+]] = spatial(8, %{{.+}})) {
// CHECK-NEXT:      %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      tir.store %[[Z]], %{{.+}}[%[[VI]]]
// CHECK-NEXT:      %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      tir.store %[[ONE]], %{{.+}}[%[[VI]]]
// CHECK-NOT:     scf.if
// CHECK-NOT:     tir.init

// SCF-LABEL: func.func @init_in_spatial_block
// SCF:         scf.for %[[I:.+]] =
// SCF-NEXT:      %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// SCF-NEXT:      memref.store %[[Z]], %{{.+}}[%[[I]]]
// SCF-NEXT:      %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// SCF-NEXT:      memref.store %[[ONE]], %{{.+}}[%[[I]]]
// SCF-NOT:     scf.if
func.func @init_in_spatial_block(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      tir.init {
        %z = arith.constant 0.0 : f32
        tir.store %z, %A[%vi] : memref<8xf32>
      }
      %c = arith.constant 1.0 : f32
      tir.store %c, %A[%vi] : memref<8xf32>
    }
  }
  return
}
