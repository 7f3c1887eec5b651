// --tir-simplify-layouts and an operator kept whole (tir.composite): by
// default its parts take its place and their transposes chain with the
// graph's (five swaps are one); with keep-composites it stays whole, its
// inside untouched, and the chains around it are shortened.
// RUN: tir-opt %s --tir-simplify-layouts | FileCheck %s
// RUN: tir-opt %s --tir-simplify-layouts=keep-composites=1 | FileCheck %s --check-prefix=KEEP

// CHECK-LABEL: func.func @op
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NOT:     tir.composite
// CHECK:         %[[T:.*]] = linalg.transpose ins(%[[X]]
// CHECK-NOT:     linalg.transpose
// CHECK:         return %[[T]]
// KEEP-LABEL: func.func @op
// KEEP-SAME:    (%[[X:.*]]: tensor<2x3x4xf32>)
// KEEP-NEXT:    %[[R:.*]] = tir.composite "swap"(%[[X]])
// KEEP:           linalg.transpose
// KEEP:           tir.yield
// KEEP-NOT:     linalg.transpose
// KEEP:         return %[[R]]
func.func @op(%x: tensor<2x3x4xf32>) -> tensor<3x2x4xf32> {
  // Around the operator: a transpose there and back (none).
  %e0 = tensor.empty() : tensor<3x2x4xf32>
  %t0 = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%e0 : tensor<3x2x4xf32>) permutation = [1, 0, 2]
  %e1 = tensor.empty() : tensor<2x3x4xf32>
  %t1 = linalg.transpose ins(%t0 : tensor<3x2x4xf32>) outs(%e1 : tensor<2x3x4xf32>) permutation = [1, 0, 2]
  %r = tir.composite "swap"(%t1) : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32> {
  ^bb0(%a: tensor<2x3x4xf32>):
    %e = tensor.empty() : tensor<3x2x4xf32>
    %t = linalg.transpose ins(%a : tensor<2x3x4xf32>) outs(%e : tensor<3x2x4xf32>) permutation = [1, 0, 2]
    tir.yield %t : tensor<3x2x4xf32>
  }
  %e2 = tensor.empty() : tensor<2x3x4xf32>
  %t2 = linalg.transpose ins(%r : tensor<3x2x4xf32>) outs(%e2 : tensor<2x3x4xf32>) permutation = [1, 0, 2]
  %e3 = tensor.empty() : tensor<3x2x4xf32>
  %t3 = linalg.transpose ins(%t2 : tensor<2x3x4xf32>) outs(%e3 : tensor<3x2x4xf32>) permutation = [1, 0, 2]
  return %t3 : tensor<3x2x4xf32>
}
