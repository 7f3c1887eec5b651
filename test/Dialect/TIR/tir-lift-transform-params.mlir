// --tir-lift-transform-params: the steps of a graph function computed from
// its weights (the parameters after num_input) and constants move into
// <name>_transform_params; the function takes their results instead. A
// step reading an input stays; so do a function without num_input and the
// fills reductions start from. A constant a moved step's body reads is
// copied with it.
// RUN: tir-opt %s --tir-lift-transform-params | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// CHECK-LABEL: func.func @main_transform_params(
// CHECK-SAME:    %{{.*}}: tensor<8x6xf32> {tir.name = "w"}, %{{.*}}: tensor<8xf32> {tir.name = "b"})
// CHECK-SAME:    -> (tensor<6x8xf32>, tensor<8xf32>) attributes {tir.tuple_result}
// CHECK:         linalg.transpose
// CHECK:         arith.constant 2.000000e+00 : f32
// CHECK:         linalg.generic
// CHECK:         return
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %[[X:.*]]: tensor<4x6xf32> {tir.name = "x"},
// CHECK-SAME:    %[[T:.*]]: tensor<6x8xf32> {tir.name = "lifted"}, %[[B:.*]]: tensor<8xf32> {tir.name = "lifted1"})
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.fill
// CHECK:         linalg.matmul ins(%[[X]], %[[T]] :
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[B]] :
// CHECK-LABEL: func.func @no_num_input(
// CHECK:         linalg.transpose

func.func @main(%x: tensor<4x6xf32> {tir.name = "x"}, %w: tensor<8x6xf32> {tir.name = "w"},
                %b: tensor<8xf32> {tir.name = "b"}) -> tensor<4x8xf32>
    attributes {tir.func_attrs = {num_input = 1 : i64}} {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %et = tensor.empty() : tensor<6x8xf32>
  %t = linalg.transpose ins(%w : tensor<8x6xf32>) outs(%et : tensor<6x8xf32>) permutation = [1, 0]
  %eb = tensor.empty() : tensor<8xf32>
  %b2 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b : tensor<8xf32>) outs(%eb : tensor<8xf32>) attrs = {tir.name = "multiply"} {
  ^bb0(%p: f32, %o: f32):
    %v = arith.mulf %p, %two : f32
    linalg.yield %v : f32
  } -> tensor<8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%x, %t : tensor<4x6xf32>, tensor<6x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %b2 : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) attrs = {tir.name = "add"} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %v = arith.addf %p, %q : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %a : tensor<4x8xf32>
}

func.func @no_num_input(%w: tensor<8x6xf32>) -> tensor<6x8xf32> {
  %et = tensor.empty() : tensor<6x8xf32>
  %t = linalg.transpose ins(%w : tensor<8x6xf32>) outs(%et : tensor<6x8xf32>) permutation = [1, 0]
  return %t : tensor<6x8xf32>
}
