// --convert-linalg-to-tir: linalg ops on buffers become TensorIR blocks in
// place, which can then be scheduled.
// RUN: tir-opt %s --convert-linalg-to-tir -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @matmul
// CHECK-SAME:    (%[[A:.*]]: memref<8x16xf32>, %[[B:.*]]: memref<16x4xf32>, %[[C:.*]]: memref<8x4xf32>)
// CHECK:         tir.for %[[I0:.*]] = 0 to 8 {
// CHECK-NEXT:      tir.for %[[I1:.*]] = 0 to 4 {
// CHECK-NEXT:        tir.for %[[I2:.*]] = 0 to 16 {
// CHECK-NEXT:          tir.block "matmul"(%[[VI:.*]] = spatial(8, %[[I0]]), %[[VJ:.*]] = spatial(4, %[[I1]]), %[[VK:.*]] = reduce(16, %[[I2]])) reads(%[[A]][%[[VI]], %[[VK]]], %[[B]][%[[VK]], %[[VJ]]], %[[C]][%[[VI]], %[[VJ]]] : {{.*}}) writes(%[[C]][%[[VI]], %[[VJ]]] : memref<8x4xf32>) {
// CHECK-NOT:             tir.init
// CHECK:                 %[[P:.*]] = arith.mulf
// CHECK:                 %[[S:.*]] = arith.addf %{{.*}}, %[[P]]
// CHECK:                 tir.store %[[S]], %[[C]][%[[VI]], %[[VJ]]]
// CHECK-NOT:   linalg.matmul
func.func @matmul(%a: memref<8x16xf32>, %b: memref<16x4xf32>, %c: memref<8x4xf32>) {
  linalg.matmul ins(%a, %b : memref<8x16xf32>, memref<16x4xf32>) outs(%c : memref<8x4xf32>)
  return
}

// -----

// A generic with linalg.index: the index is the block's variable.
// CHECK-LABEL: func.func @iota
// CHECK:         tir.block "compute"(%[[V:.*]] = spatial(8, %{{.*}}))
// CHECK:           arith.index_cast %[[V]] : index to i32
func.func @iota(%o: memref<8xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%o : memref<8xi32>) {
  ^bb0(%x: i32):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i32
    linalg.yield %v : i32
  }
  return
}

// -----

// A fill of a constant: the block makes the constant and stores it.
// CHECK-LABEL: func.func @fill
// CHECK:         tir.block "T_full"(%[[I:.*]] = spatial(4, %{{.*}}))
// CHECK-NEXT:      %[[C:.*]] = arith.constant 1.500000e+00 : f32
// CHECK-NEXT:      tir.store %[[C]], %arg0[%[[I]]]
func.func @fill(%o: memref<4xf32>) {
  %c = arith.constant 1.5 : f32
  linalg.fill ins(%c : f32) outs(%o : memref<4xf32>)
  return
}
