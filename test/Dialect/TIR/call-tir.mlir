// tir.call_tir prints and parses back; a graph function mixes calls with
// constants and returns several results.
// RUN: tir-opt %s | tir-opt | FileCheck %s

func.func private @add(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>) {
  return
}
func.func private @split(%a: memref<?xf32>, %lo: memref<4xf32>, %hi: memref<4xf32>) {
  return
}

// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[X:.*]]: tensor<8xf32>)
// CHECK:         %[[W:.*]] = arith.constant dense<2.000000e+00> : tensor<8xf32>
// CHECK:         %[[S:.*]] = tir.call_tir @add(%[[X]], %[[W]]) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK:         %[[P:.*]]:2 = tir.call_tir @split(%[[S]]) : (tensor<8xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK:         return %[[P]]#0, %[[P]]#1
func.func @main(%x: tensor<8xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %w = arith.constant dense<2.0> : tensor<8xf32>
  %s = tir.call_tir @add(%x, %w) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %lo, %hi = tir.call_tir @split(%s) : (tensor<8xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %lo, %hi : tensor<4xf32>, tensor<4xf32>
}

// An unused call is pure: canonicalization removes it.
// RUN: tir-opt %s --canonicalize | FileCheck %s --check-prefix=DCE
// DCE-LABEL: func.func @unused
// DCE-NOT:     tir.call_tir
// DCE:         return %arg0
func.func @unused(%x: tensor<8xf32>) -> tensor<8xf32> {
  %w = arith.constant dense<2.0> : tensor<8xf32>
  %s = tir.call_tir @add(%x, %w) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %x : tensor<8xf32>
}

// A result's dynamic dimension takes its size from dims(...); the size a
// tensor.dim of the result reads resolves to it (the op reifies its
// result shapes).
// RUN: tir-opt %s --resolve-ranked-shaped-type-result-dims | FileCheck %s --check-prefix=DIMS
func.func private @scale(%a: memref<?xf32>, %b: memref<?xf32>) {
  return
}
// DIMS-LABEL: func.func @dynamic
// DIMS-SAME:    (%[[X:.*]]: tensor<?xf32>, %[[N:.*]]: index)
// DIMS:         %[[Y:.*]] = tir.call_tir @scale(%[[X]]) dims(%[[N]]) : (tensor<?xf32>) -> tensor<?xf32>
// DIMS:         return %[[Y]], %[[N]]
func.func @dynamic(%x: tensor<?xf32>, %n: index) -> (tensor<?xf32>, index) {
  %y = tir.call_tir @scale(%x) dims(%n) : (tensor<?xf32>) -> tensor<?xf32>
  %c0 = arith.constant 0 : index
  %d = tensor.dim %y, %c0 : tensor<?xf32>
  return %y, %d : tensor<?xf32>, index
}
