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
