// --tir-legalize-ops on a gather (relax's take): the generic reads its data
// input with tensor.extract at an index it computes; the prim_func takes
// the data as a parameter and its block loads from it at that index.
// RUN: tir-opt %s --tir-legalize-ops | FileCheck %s

// CHECK-LABEL: func.func private @take
// CHECK-SAME:    (%[[A:.*]]: memref<5x3xf32> {tir.name = "A"}, %[[B:.*]]: memref<4xi64> {tir.name = "B"}, %[[T:.*]]: memref<4x3xf32> {tir.name = "T_take"})
// CHECK:         tir.block "take"
// CHECK:           %[[I:.*]] = tir.load %[[B]]
// CHECK:           arith.maxsi %[[I]]
// CHECK:           %[[C:.*]] = arith.minsi
// CHECK:           %[[X:.*]] = arith.index_cast %[[C]] : i64 to index
// CHECK:           %[[V:.*]] = tir.load %[[A]][%[[X]], %{{.*}}]
// CHECK:           tir.store %[[V]], %[[T]]
// CHECK-LABEL: func.func @main
// CHECK:         tir.call_tir @take(%arg0, %arg1)
#zero = affine_map<(d0, d1) -> (0, 0)>
#row = affine_map<(d0, d1) -> (d0)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%x: tensor<5x3xf32>, %i: tensor<4xi64>) -> tensor<4x3xf32> {
  %e = tensor.empty() : tensor<4x3xf32>
  %r = linalg.generic {indexing_maps = [#zero, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %i : tensor<5x3xf32>, tensor<4xi64>) outs(%e : tensor<4x3xf32>) attrs = {tir.name = "take"} {
  ^bb0(%unused: f32, %index: i64, %out: f32):
    %zero = arith.constant 0 : i64
    %last = arith.constant 4 : i64
    %low = arith.maxsi %index, %zero : i64
    %clamped = arith.minsi %low, %last : i64
    %row = arith.index_cast %clamped : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %x[%row, %col] : tensor<5x3xf32>
    linalg.yield %v : f32
  } -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
