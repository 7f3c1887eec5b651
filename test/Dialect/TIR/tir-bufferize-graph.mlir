// --tir-bufferize-graph: graph functions become allocations, calls of the
// prim_funcs and frees; their results become out-parameters.
// RUN: tir-opt %s --tir-bufferize-graph -split-input-file | FileCheck %s

func.func private @mm(%a: memref<4x8xf32>, %b: memref<8x4xf32>, %c: memref<4x4xf32>)
func.func private @relu(%a: memref<4x4xf32>, %b: memref<4x4xf32>)

// The weight becomes a global; the matmul's result is a temporary freed
// after its last use; the ReLU writes straight into the out-parameter. The
// graph function is marked tir.graph.
// CHECK:       memref.global "private" constant @[[W:.*]] : memref<8x4xf32> = dense<1.000000e+00>
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[X:.*]]: memref<4x8xf32>, %[[OUT:.*]]: memref<4x4xf32> {tir.name = "output", tir.result})
// CHECK-SAME:    attributes {tir.graph}
// CHECK:         %[[G:.*]] = memref.get_global @[[W]] : memref<8x4xf32>
// CHECK:         %[[T:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x4xf32>
// CHECK:         call @mm(%[[X]], %[[G]], %[[T]])
// CHECK:         call @relu(%[[T]], %[[OUT]])
// CHECK:         memref.dealloc %[[T]]
// CHECK-NEXT:    return
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %w = arith.constant dense<1.0> : tensor<8x4xf32>
  %0 = tir.call_tir @mm(%x, %w) : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  %1 = tir.call_tir @relu(%0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %1 : tensor<4x4xf32>
}

// -----

// A callee whose parameter has another layout gets a cast; two results are
// two out-parameters; a result that is a parameter is that parameter (no
// out-parameter: the results' nesting names it -1 - its index).
func.func private @split(%a: memref<8xf32, strided<[?], offset: ?>>, %lo: memref<4xf32>, %hi: memref<4xf32>)

// CHECK-LABEL: func.func @two
// CHECK-SAME:    (%[[X:.*]]: memref<8xf32>, %[[O0:.*]]: memref<4xf32> {tir.name = "output", tir.result}, %[[O1:.*]]: memref<4xf32> {tir.name = "output1", tir.result})
// CHECK-SAME:    attributes {tir.graph, tir.result_nesting = [0, 1, -1]}
// CHECK:         %[[C:.*]] = memref.cast %[[X]] : memref<8xf32> to memref<8xf32, strided<[?], offset: ?>>
// CHECK:         call @split(%[[C]], %[[O0]], %[[O1]])
// CHECK-NOT:     memref.copy
func.func @two(%x: tensor<8xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<8xf32>) {
  %lo, %hi = tir.call_tir @split(%x) : (tensor<8xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %lo, %hi, %x : tensor<4xf32>, tensor<4xf32>, tensor<8xf32>
}

// -----

// A module of prim_funcs only is left as it is.
// CHECK-LABEL: func.func @prim
// CHECK-SAME:    (%{{.*}}: memref<8xf32>) {
// CHECK-NEXT:    return
func.func @prim(%a: memref<8xf32>) {
  return
}

// -----

// A value returned twice is two out-parameters: the second gets a copy
// (upstream's promotion crashed on an allocation returned twice).
func.func private @relu(%a: memref<4xf32>, %b: memref<4xf32>)

// CHECK-LABEL: func.func @twice
// CHECK-SAME:    (%[[X:.*]]: memref<4xf32>, %[[O0:.*]]: memref<4xf32> {tir.name = "output", tir.result}, %[[O1:.*]]: memref<4xf32> {tir.name = "output1", tir.result})
// CHECK-NEXT:    call @relu(%[[X]], %[[O0]])
// CHECK-NEXT:    memref.copy %[[O0]], %[[O1]]
// CHECK-NEXT:    return
func.func @twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = tir.call_tir @relu(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %0 : tensor<4xf32>, tensor<4xf32>
}

// -----

// A slice at a run-time offset is copied into a row-major buffer (a cast
// would drop its offset); a non-tensor result stays a result.
func.func private @relu(%a: memref<4xf32>, %b: memref<4xf32>)

// CHECK-LABEL: func.func @slice
// CHECK-SAME:    (%[[X:.*]]: memref<8xf32>, %[[I:.*]]: index, %[[OUT:.*]]: memref<4xf32> {tir.name = "output", tir.result}) -> index
// CHECK:         %[[V:.*]] = memref.subview %[[X]][%[[I]]] [4] [1]
// CHECK:         %[[C:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK:         memref.copy %[[V]], %[[C]]
// CHECK:         call @relu(%[[C]], %[[OUT]])
func.func @slice(%x: tensor<8xf32>, %i: index) -> (tensor<4xf32>, index) {
  %s = tensor.extract_slice %x[%i] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %0 = tir.call_tir @relu(%s) : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %i : tensor<4xf32>, index
}
