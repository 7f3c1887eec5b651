// RUN: tir-opt %s --split-input-file --tir-fold-private-offsets --canonicalize | FileCheck %s

// A 2 x 8 tile compacted along %k (its view starts at -16 k) and indexed
// with row 2 k + 1: the k terms cancel, the accesses land at constant
// offsets of a flat view (row 1, column 3: element 11; row 1's start for
// the vector: element 8).
// CHECK-LABEL: func.func @cancel
// CHECK-DAG:     %[[C11:.*]] = arith.constant 11 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[A:.*]] = memref.alloca() : memref<2x8xf32>
// CHECK:         %[[FLAT:.*]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [16], strides: [1] : memref<2x8xf32> to memref<16xf32>
// CHECK:         memref.store %{{.*}}, %[[FLAT]][%[[C11]]] : memref<16xf32>
// CHECK:         memref.load %[[FLAT]][%[[C11]]] : memref<16xf32>
// CHECK:         vector.load %[[FLAT]][%[[C8]]] : memref<16xf32>, vector<4xf32>
func.func @cancel(%k: index, %v: f32) -> (f32, vector<4xf32>) {
  %a = memref.alloca() : memref<2x8xf32>
  %cm16 = arith.constant -16 : index
  %off = arith.muli %k, %cm16 : index
  %view = memref.reinterpret_cast %a to offset: [%off], sizes: [4, 8], strides: [8, 1] : memref<2x8xf32> to memref<4x8xf32, strided<[8, 1], offset: ?>>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %row = arith.muli %k, %c2 : index
  %row1 = arith.addi %row, %c1 : index
  memref.store %v, %view[%row1, %c3] : memref<4x8xf32, strided<[8, 1], offset: ?>>
  %x = memref.load %view[%row1, %c3] : memref<4x8xf32, strided<[8, 1], offset: ?>>
  // A row's view: offset -16 k + (2 k + 1) * 8, shifted left by 3 for 8.
  %c3s = arith.constant 3 : index
  %r8 = arith.shli %row1, %c3s : index
  %o2 = arith.addi %off, %r8 : index
  %rowview = memref.reinterpret_cast %a to offset: [%o2], sizes: [8], strides: [1] : memref<2x8xf32> to memref<8xf32, strided<[1], offset: ?>>
  %c0 = arith.constant 0 : index
  %vec = vector.load %rowview[%c0] : memref<8xf32, strided<[1], offset: ?>>, vector<4xf32>
  return %x, %vec : f32, vector<4xf32>
}

// -----

// What does not cancel stays, as index arithmetic on the flat view
// (-16 k + 8 k + j); a buffer reached without a view is left alone.
// CHECK-LABEL: func.func @partial
// CHECK:         %[[FLAT:.*]] = memref.reinterpret_cast %{{.*}} to offset: [0], sizes: [16], strides: [1]
// CHECK:         %[[K:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK:         %[[AT:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK:         memref.load %[[FLAT]][%[[AT]]] : memref<16xf32>
// CHECK:         memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<2x8xf32>
func.func @partial(%k: index, %j: index) -> (f32, f32) {
  %a = memref.alloca() : memref<2x8xf32>
  %cm16 = arith.constant -16 : index
  %off = arith.muli %k, %cm16 : index
  %view = memref.reinterpret_cast %a to offset: [%off], sizes: [4, 8], strides: [8, 1] : memref<2x8xf32> to memref<4x8xf32, strided<[8, 1], offset: ?>>
  %x = memref.load %view[%k, %j] : memref<4x8xf32, strided<[8, 1], offset: ?>>
  %c0 = arith.constant 0 : index
  %y = memref.load %a[%c0, %j] : memref<2x8xf32>
  return %x, %y : f32, f32
}
