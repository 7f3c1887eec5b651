// --tir-legalize-ops on the network operators the Python frontend writes:
// a padded convolution, batch norm, max and average pooling, a batched
// matmul, a reshape (a view, left to bufferization).
// RUN: tir-opt %s --tir-legalize-ops | FileCheck %s

// The padding reads its source at clamped indices, under a select.
// CHECK-LABEL: func.func private @pad
// CHECK-SAME:    (%[[A:.*]]: memref<1x2x4x4xf32> {tir.name = "A"}, %[[P:.*]]: memref<1x2x6x6xf32> {tir.name = "T_pad"})
// CHECK:         tir.block "T_pad"
// CHECK:           arith.maxsi
// CHECK:           arith.minsi
// CHECK:           %[[X:.*]] = tir.load %[[A]]
// CHECK:           %[[S:.*]] = arith.select %{{.*}}, %[[X]], %{{.*}} : f32
// CHECK:           tir.store %[[S]], %[[P]]
// The convolution: output channels and pixels spatial, input channels and
// the window reduce, its input read at d2 + d5 and d3 + d6.
// CHECK-LABEL: func.func private @conv_2d_nchw_fchw
// CHECK:         tir.block "conv_2d_nchw_fchw"(%{{.*}} = spatial(1, {{.*}}), %{{.*}} = spatial(3, {{.*}}), %{{.*}} = spatial(4, {{.*}}), %{{.*}} = spatial(4, {{.*}}), %{{.*}} = reduce(2, {{.*}}), %{{.*}} = reduce(3, {{.*}}), %{{.*}} = reduce(3, {{.*}}))
// CHECK:           tir.init
// CHECK-LABEL: func.func private @batch_norm
// CHECK:           math.sqrt
// CHECK-LABEL: func.func private @pooling_nchw_max
// CHECK:         tir.block "pooling_nchw_max"({{.*}} = reduce(2, {{.*}}), {{.*}} = reduce(2, {{.*}}))
// CHECK-LABEL: func.func private @adaptive_avg_pool2d
// CHECK-SAME:    (%{{.*}}: memref<1x3x2x2xf32> {tir.name = "A"}, %{{.*}}: memref<1x3x1x1xf32> {tir.name = "T_adaptive_avg_pool2d"})
// CHECK-LABEL: func.func private @batch_matmul
// CHECK:         tir.block "batch_matmul"({{.*}} = spatial(2, {{.*}}), {{.*}} = spatial(3, {{.*}}), {{.*}} = spatial(3, {{.*}}), {{.*}} = reduce(3, {{.*}}))
// CHECK-LABEL: func.func @net
// CHECK:         tir.call_tir @pad(
// CHECK:         tir.call_tir @conv_2d_nchw_fchw(
// CHECK:         tir.call_tir @batch_norm(
// CHECK:         tir.call_tir @pooling_nchw_max(
// CHECK:         tir.call_tir @adaptive_avg_pool2d(
// CHECK:         tensor.collapse_shape
// CHECK:         tir.call_tir @batch_matmul(
// CHECK-NOT:     linalg.
func.func @net(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>, %g: tensor<3xf32>, %m: tensor<2x3x3xf32>) -> (tensor<1x3xf32>, tensor<2x3x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %e = tensor.empty() : tensor<1x3x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) outs(%f : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %bn = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%conv, %g : tensor<1x3x4x4xf32>, tensor<3xf32>) outs(%e : tensor<1x3x4x4xf32>) attrs = {tir.name = "batch_norm"} {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %r = math.sqrt %s : f32
    %n = arith.divf %v, %r : f32
    linalg.yield %n : f32
  } -> tensor<1x3x4x4xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %e2 = tensor.empty() : tensor<1x3x2x2xf32>
  %f2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pool = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%bn, %win : tensor<1x3x4x4xf32>, tensor<2x2xf32>) outs(%f2 : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  %e3 = tensor.empty() : tensor<1x3x1x1xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x3x1x1xf32>) -> tensor<1x3x1x1xf32>
  %avg = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%pool, %win : tensor<1x3x2x2xf32>, tensor<2x2xf32>) outs(%f3 : tensor<1x3x1x1xf32>) attrs = {tir.name = "adaptive_avg_pool2d"} {
  ^bb0(%i: f32, %ww: f32, %o: f32):
    %q = arith.constant 0.25 : f32
    %t = arith.mulf %i, %q : f32
    %u = arith.addf %o, %t : f32
    linalg.yield %u : f32
  } -> tensor<1x3x1x1xf32>
  %flat = tensor.collapse_shape %avg [[0], [1, 2, 3]] : tensor<1x3x1x1xf32> into tensor<1x3xf32>
  %e4 = tensor.empty() : tensor<2x3x3xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  %bmm = linalg.batch_matmul ins(%m, %m : tensor<2x3x3xf32>, tensor<2x3x3xf32>) outs(%f4 : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  return %flat, %bmm : tensor<1x3xf32>, tensor<2x3x3xf32>
}
