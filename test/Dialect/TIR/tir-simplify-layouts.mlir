// --tir-simplify-layouts: the transposes and reshapes of graph functions as
// few as the layouts allow, before LegalizeOps makes a kernel of each
// transpose; other ops (and their bodies) stay as they are.
// RUN: tir-opt %s --tir-simplify-layouts -split-input-file | FileCheck %s

// Attention's heads as torch.export gives them: a transpose there and back
// (none), then the key's transpose composed with the head split (one).
// CHECK-LABEL: func.func @heads
// CHECK-SAME:    (%[[Q:.*]]: tensor<128x4x64xf32>)
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4x64x128xf32>
// CHECK-NEXT:    %[[T:.*]] = linalg.transpose ins(%[[Q]] : tensor<128x4x64xf32>) outs(%[[E]] : tensor<4x64x128xf32>) permutation = [1, 2, 0]
// CHECK-NEXT:    return %[[T]]
func.func @heads(%q: tensor<128x4x64xf32>) -> tensor<4x64x128xf32> {
  %e0 = tensor.empty() : tensor<4x128x64xf32>
  %t0 = linalg.transpose ins(%q : tensor<128x4x64xf32>) outs(%e0 : tensor<4x128x64xf32>) permutation = [1, 0, 2]
  %x = tensor.expand_shape %t0 [[0, 1], [2], [3]] output_shape [1, 4, 128, 64] : tensor<4x128x64xf32> into tensor<1x4x128x64xf32>
  %e1 = tensor.empty() : tensor<1x128x4x64xf32>
  %t1 = linalg.transpose ins(%x : tensor<1x4x128x64xf32>) outs(%e1 : tensor<1x128x4x64xf32>) permutation = [0, 2, 1, 3]
  %e2 = tensor.empty() : tensor<1x4x128x64xf32>
  %t2 = linalg.transpose ins(%t1 : tensor<1x128x4x64xf32>) outs(%e2 : tensor<1x4x128x64xf32>) permutation = [0, 2, 1, 3]
  %c = tensor.collapse_shape %t2 [[0, 1], [2], [3]] : tensor<1x4x128x64xf32> into tensor<4x128x64xf32>
  %e3 = tensor.empty() : tensor<4x64x128xf32>
  %t3 = linalg.transpose ins(%c : tensor<4x128x64xf32>) outs(%e3 : tensor<4x64x128xf32>) permutation = [0, 2, 1]
  return %t3 : tensor<4x64x128xf32>
}

// -----

// A transpose that moves only a dimension of 1 is a reshape: a view.
// CHECK-LABEL: func.func @unit
// CHECK-SAME:    (%[[X:.*]]: tensor<1x128x256xf32>)
// CHECK-NEXT:    %[[C:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : tensor<1x128x256xf32> into tensor<128x256xf32>
// CHECK-NEXT:    %[[R:.*]] = tensor.expand_shape %[[C]] {{\[}}[0], [1, 2]] output_shape [128, 1, 256] : tensor<128x256xf32> into tensor<128x1x256xf32>
// CHECK-NEXT:    return %[[R]]
func.func @unit(%x: tensor<1x128x256xf32>) -> tensor<128x1x256xf32> {
  %e = tensor.empty() : tensor<128x1x256xf32>
  %t = linalg.transpose ins(%x : tensor<1x128x256xf32>) outs(%e : tensor<128x1x256xf32>) permutation = [1, 0, 2]
  return %t : tensor<128x1x256xf32>
}

// -----

// Every dimension 1: the same tensor.
// CHECK-LABEL: func.func @ones
// CHECK-SAME:    (%[[X:.*]]: tensor<1x1xf32>)
// CHECK-NEXT:    return %[[X]]
func.func @ones(%x: tensor<1x1xf32>) -> tensor<1x1xf32> {
  %e = tensor.empty() : tensor<1x1xf32>
  %t = linalg.transpose ins(%x : tensor<1x1xf32>) outs(%e : tensor<1x1xf32>) permutation = [1, 0]
  return %t : tensor<1x1xf32>
}

// -----

// Dimensions over 1 that change places stay a transpose; one of a dynamic
// shape too.
// CHECK-LABEL: func.func @kept
// CHECK:         linalg.transpose {{.*}} permutation = [3, 1, 2, 0, 4]
// CHECK:         linalg.transpose {{.*}} permutation = [1, 0, 2]
func.func @kept(%x: tensor<1x128x1x3x256xf32>, %d: tensor<1x?x8xf32>, %n: index) -> (tensor<3x128x1x1x256xf32>, tensor<?x1x8xf32>) {
  %e = tensor.empty() : tensor<3x128x1x1x256xf32>
  %t = linalg.transpose ins(%x : tensor<1x128x1x3x256xf32>) outs(%e : tensor<3x128x1x1x256xf32>) permutation = [3, 1, 2, 0, 4]
  %e1 = tensor.empty(%n) : tensor<?x1x8xf32>
  %t1 = linalg.transpose ins(%d : tensor<1x?x8xf32>) outs(%e1 : tensor<?x1x8xf32>) permutation = [1, 0, 2]
  return %t, %t1 : tensor<3x128x1x1x256xf32>, tensor<?x1x8xf32>
}

// -----

// The bodies of other ops are not folded: a gather's constants stay where
// the importer put them.
// CHECK-LABEL: func.func @gather
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      arith.index_cast
// CHECK-NEXT:      arith.constant 0 : index
// CHECK-NEXT:      arith.constant 2 : index
#in = affine_map<(d0) -> (d0)>
#idx = affine_map<(d0) -> ()>
func.func @gather(%x: tensor<3x8xf32>, %i: tensor<i64>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %g = linalg.generic {indexing_maps = [#idx, #in], iterator_types = ["parallel"]} ins(%i : tensor<i64>) outs(%e : tensor<8xf32>) {
  ^bb0(%k: i64, %o: f32):
    %ki = arith.index_cast %k : i64 to index
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %lo = arith.maxsi %ki, %c0 : index
    %hi = arith.minsi %lo, %c2 : index
    %j = linalg.index 0 : index
    %v = tensor.extract %x[%hi, %j] : tensor<3x8xf32>
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %g : tensor<8xf32>
}
