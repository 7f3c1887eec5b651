// tir.composite prints and parses back; unused, it is removed with its
// parts (it has no effect of its own); --tir-legalize-ops puts its parts
// in its place and legalizes them as the graph's other ops.
// RUN: tir-opt %s | tir-opt | FileCheck %s
// RUN: tir-opt %s --canonicalize | FileCheck %s --check-prefix=DCE
// RUN: tir-opt %s --tir-legalize-ops | FileCheck %s --check-prefix=LEGAL

// CHECK-LABEL: func.func @scaled
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>)
// CHECK:         %[[R:.*]] = tir.composite "scaled"(%[[X]]) {op_attrs = {factor = 2.000000e+00 : f64}} : (tensor<4x8xf32>) -> tensor<4x8xf32> {
// CHECK:         ^bb0(%[[A:.*]]: tensor<4x8xf32>):
// CHECK:           %[[M:.*]] = linalg.generic
// CHECK-SAME:        ins(%[[A]]
// CHECK:           tir.yield %[[M]] : tensor<4x8xf32>
// CHECK:         return %[[R]]
// LEGAL-LABEL: func.func @scaled
// LEGAL-NOT:     tir.composite
// LEGAL:         %[[R:.*]] = tir.call_tir @multiply(%{{.*}}) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// LEGAL-NOT:     tir.yield
// LEGAL:         return %[[R]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scaled(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = tir.composite "scaled"(%x) {op_attrs = {factor = 2.0 : f64}} : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    %e = tensor.empty() : tensor<4x8xf32>
    %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) attrs = {tir.name = "multiply"} {
    ^bb0(%in: f32, %out: f32):
      %two = arith.constant 2.0 : f32
      %y = arith.mulf %in, %two : f32
      linalg.yield %y : f32
    } -> tensor<4x8xf32>
    tir.yield %m : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// DCE-LABEL: func.func @unused
// DCE-NOT:     tir.composite
// DCE:         return %arg0
func.func @unused(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = tir.composite "scaled"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32> {
  ^bb0(%a: tensor<4x8xf32>):
    tir.yield %a : tensor<4x8xf32>
  }
  return %x : tensor<4x8xf32>
}
