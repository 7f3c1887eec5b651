// --tir-legalize-ops then --tir-fuse-ops --tir-fuse-tir (Relax's LegalizeOps, FuseOps and
// FuseTIR): a matmul and the element-wise ops consuming its result in turn
// are one prim_func, one block each, the intermediate results allocated
// in it.
// RUN: tir-opt %s --tir-legalize-ops --tir-fuse-ops --tir-fuse-tir -split-input-file | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func private @fused_matmul_add_relu
// CHECK-SAME:    (%[[X:.*]]: memref<2x8xf32> {tir.name = "A"}, %[[W:.*]]: memref<8x4xf32> {tir.name = "B"}, %[[B:.*]]: memref<4xf32> {tir.name = "B_1"}, %[[OUT:.*]]: memref<2x4xf32> {tir.name = "T_relu"})
// CHECK-NEXT:    %[[M:matmul]] = tir.alloc_buffer : memref<2x4xf32>
// CHECK-NEXT:    %[[A:add]] = tir.alloc_buffer : memref<2x4xf32>
// CHECK:         tir.block "matmul"({{.*}}) reads({{.*}}) writes(%[[M]]
// CHECK:           tir.init
// CHECK:         tir.block "add"({{.*}}) reads(%[[M]]{{.*}}, %[[B]]{{.*}}) writes(%[[A]]
// CHECK:         tir.block "relu"({{.*}}) reads(%[[A]]{{.*}}) writes(%[[OUT]]
// CHECK-LABEL: func.func @mlp
// CHECK-NEXT:    %[[R:.*]] = tir.call_tir @fused_matmul_add_relu(%arg0, %arg1, %arg2)
// CHECK-NEXT:    return %[[R]]
func.func @mlp(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = linalg.matmul ins(%x, %w : tensor<2x8xf32>, tensor<8x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  %a = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%m, %b : tensor<2x4xf32>, tensor<4xf32>) outs(%e : tensor<2x4xf32>) attrs = {tir.name = "add"} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) attrs = {tir.name = "relu"} {
  ^bb0(%p: f32, %o: f32):
    %c0 = arith.constant 0.0 : f32
    %s = arith.maximumf %p, %c0 : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
// A value with a second user ends the group: the second user must read it
// from a tensor.
// CHECK-LABEL: func.func private @matmul(
// CHECK-LABEL: func.func private @relu(
// CHECK-LABEL: func.func @shared
// CHECK-NEXT:    %[[M:.*]] = tir.call_tir @matmul
// CHECK-NEXT:    %[[R:.*]] = tir.call_tir @relu(%[[M]])
// CHECK-NEXT:    return %[[M]], %[[R]]
func.func @shared(%x: tensor<2x8xf32>, %w: tensor<8x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = linalg.matmul ins(%x, %w : tensor<2x8xf32>, tensor<8x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) attrs = {tir.name = "relu"} {
  ^bb0(%p: f32, %o: f32):
    %c0 = arith.constant 0.0 : f32
    %s = arith.maximumf %p, %c0 : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  return %m, %r : tensor<2x4xf32>, tensor<2x4xf32>
}
