// --tir-legalize-ops: each linalg op on tensors in a graph function becomes
// a private prim_func (one TensorIR block) and a tir.call_tir of it.
// RUN: tir-opt %s --tir-legalize-ops -split-input-file | FileCheck %s

// A matmul starting from a fill of 0 gets T.init; the transpose only
// writes; functions come in the order of their ops, before the graph.
// CHECK-LABEL: func.func private @transpose
// CHECK-SAME:    (%[[A:.*]]: memref<4x8xf32> {tir.name = "A"}, %[[T:.*]]: memref<8x4xf32> {tir.name = "T_transpose"})
// CHECK:         tir.block "transpose"(%[[I:.*]] = spatial(8, %{{.*}}), %[[J:.*]] = spatial(4, %{{.*}}))
// CHECK-NOT:     tir.init
// CHECK:           tir.load %[[A]][%[[J]], %[[I]]]
// CHECK-LABEL: func.func private @matmul
// CHECK:         tir.block "matmul"(%[[MI:.*]] = spatial(2, %{{.*}}), %[[MJ:.*]] = spatial(4, %{{.*}}), %[[MK:.*]] = reduce(8, %{{.*}}))
// CHECK-NEXT:      tir.init {
// CHECK-NEXT:        %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:        tir.store %[[Z]], %{{.*}}[%[[MI]], %[[MJ]]]
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %[[WT:.*]] = tir.call_tir @transpose(%{{.*}}) : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    %[[M:.*]] = tir.call_tir @matmul(%{{.*}}, %[[WT]]) : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
// CHECK-NEXT:    return %[[M]]
func.func @main(%x: tensor<2x8xf32>, %w: tensor<4x8xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<8x4xf32>
  %wt = linalg.transpose ins(%w : tensor<4x8xf32>) outs(%e : tensor<8x4xf32>) permutation = [1, 0]
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<2x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e2 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = linalg.matmul ins(%x, %wt : tensor<2x8xf32>, tensor<8x4xf32>) outs(%f : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %m : tensor<2x4xf32>
}

// -----

// A generic named by its tir.name, with a broadcast operand; the same
// computation twice is one function; another shape is a second one.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func private @add
// CHECK-SAME:    (%[[A:.*]]: memref<2x4xf32> {tir.name = "A"}, %[[B:.*]]: memref<4xf32> {tir.name = "B"}, %[[C:.*]]: memref<2x4xf32> {tir.name = "T_add"})
// CHECK:         tir.block "add"(%[[I:.*]] = spatial(2, %{{.*}}), %[[J:.*]] = spatial(4, %{{.*}})) reads(%[[A]][%[[I]], %[[J]]], %[[B]][%[[J]]] : {{.*}}) writes(%[[C]][%[[I]], %[[J]]] : {{.*}})
// CHECK:           arith.addf
// CHECK-LABEL: func.func private @add1
// CHECK-SAME:    memref<4x4xf32>
// CHECK-LABEL: func.func @twice
// CHECK-NEXT:    %[[S:.*]] = tir.call_tir @add(%arg0, %arg1)
// CHECK-NEXT:    %[[T:.*]] = tir.call_tir @add(%[[S]], %arg1)
// CHECK-NEXT:    tir.call_tir @add1(%arg2, %arg1)
func.func @twice(%x: tensor<2x4xf32>, %b: tensor<4xf32>, %y: tensor<4x4xf32>) -> (tensor<2x4xf32>, tensor<4x4xf32>) {
  %e = tensor.empty() : tensor<2x4xf32>
  %0 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b : tensor<2x4xf32>, tensor<4xf32>) outs(%e : tensor<2x4xf32>) attrs = {tir.name = "add"} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %1 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%0, %b : tensor<2x4xf32>, tensor<4xf32>) outs(%e : tensor<2x4xf32>) attrs = {tir.name = "add"} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<2x4xf32>
  %e4 = tensor.empty() : tensor<4x4xf32>
  %2 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%y, %b : tensor<4x4xf32>, tensor<4xf32>) outs(%e4 : tensor<4x4xf32>) attrs = {tir.name = "add"} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %1, %2 : tensor<2x4xf32>, tensor<4x4xf32>
}

// -----

// Softmax is decomposed into its parts, then they are one prim_func, as
// TVM's softmax: four blocks named as TVM names them, the values between
// them intermediate buffers.
// CHECK-LABEL: func.func private @softmax(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<2x4xf32> {tir.name = "A"}, %[[Y:[a-z0-9]+]]: memref<2x4xf32> {tir.name = "T_softmax_norm"})
// CHECK-NEXT:    %[[M:softmax_maxelem]] = tir.alloc_buffer : memref<2xf32>
// CHECK-NEXT:    %[[E:softmax_exp]] = tir.alloc_buffer : memref<2x4xf32>
// CHECK-NEXT:    %[[S:softmax_expsum]] = tir.alloc_buffer : memref<2xf32>
// CHECK:         tir.block "softmax_maxelem"({{.*}}) reads(%[[X]]{{.*}}) writes(%[[M]]
// CHECK:         tir.block "softmax_exp"({{.*}}) reads(%[[X]]{{.*}}, %[[M]]{{.*}}) writes(%[[E]]
// CHECK:           math.exp
// CHECK:         tir.block "softmax_expsum"({{.*}}) reads(%[[E]]{{.*}}) writes(%[[S]]
// CHECK:         tir.block "softmax_norm"({{.*}}) reads(%[[E]]{{.*}}, %[[S]]{{.*}}) writes(%[[Y]]
// CHECK:           arith.divf
// CHECK-NOT:     func.func private
// CHECK-LABEL: func.func @attention
// CHECK-NEXT:    %[[R:.*]] = tir.call_tir @softmax(%arg0)
// CHECK-NEXT:    %[[R2:.*]] = tir.call_tir @softmax(%[[R]])
// CHECK-NEXT:    return %[[R2]]
func.func @attention(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %e = tensor.empty() : tensor<2x4xf32>
  %r = linalg.softmax dimension(1) ins(%x : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %r2 = linalg.softmax dimension(1) ins(%r : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r2 : tensor<2x4xf32>
}

// -----

// An output that starts from another tensor takes it as an input, copied
// in by a block of its own; a pooling window (not read) is not passed.
// CHECK-LABEL: func.func private @matmul
// CHECK-SAME:    {tir.name = "matmul_init0"}
// CHECK:         tir.block "matmul_init"
// CHECK:         tir.block "matmul"
// CHECK-NOT:       tir.init
// CHECK-LABEL: func.func private @pooling_nchw_max
// CHECK-SAME:    (%{{.*}}: memref<1x1x4x4xf32> {tir.name = "A"}, %{{.*}}: memref<1x1x2x2xf32> {tir.name = "T_pooling_nchw_max"})
// CHECK:         tir.init
// CHECK:         arith.maximumf
// CHECK-LABEL: func.func @accumulate
// CHECK:         tir.call_tir @matmul(%arg0, %arg1, %arg2)
// CHECK:         tir.call_tir @pooling_nchw_max(%arg3)
func.func @accumulate(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>, %c: tensor<2x2xf32>, %img: tensor<1x1x4x4xf32>) -> (tensor<2x2xf32>, tensor<1x1x2x2xf32>) {
  %m = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x1x2x2xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%img, %win : tensor<1x1x4x4xf32>, tensor<2x2xf32>) outs(%f : tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %m, %p : tensor<2x2xf32>, tensor<1x1x2x2xf32>
}

// -----

// A transpose of a constant is folded (the weight of Relax's linear).
// CHECK-LABEL: func.func @folded
// CHECK-NEXT:    %[[W:.*]] = arith.constant dense<{{\[}}[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>
// CHECK-NEXT:    return %[[W]]
func.func @folded() -> tensor<3x2xi32> {
  %w = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %e = tensor.empty() : tensor<3x2xi32>
  %t = linalg.transpose ins(%w : tensor<2x3xi32>) outs(%e : tensor<3x2xi32>) permutation = [1, 0]
  return %t : tensor<3x2xi32>
}

// -----

// A constant the body takes from outside it (canonicalization hoists them)
// is made in the block; fills of buffers are not the pass's to remove.
// CHECK-LABEL: func.func private @compute
// CHECK:         tir.block "compute"
// CHECK:           %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:           arith.maximumf %{{.*}}, %[[Z]]
// CHECK-LABEL: func.func @hoisted
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%arg1 : memref<4xf32>)
func.func @hoisted(%x: tensor<4xf32>, %buf: memref<4xf32>) -> tensor<4xf32> {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%buf : memref<4xf32>)
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.maximumf %a, %z : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
