// --tir-rewrite-weight-layouts: a constant weight a reduction reads along
// one output axis gets that axis in contiguous tiles, last (tile=2 here:
// W[j, k] becomes W[j floordiv 2, k, j mod 2]; with tile=0 it is only
// moved last: W[k, j]); the callee's parameter and load follow, and every
// call passes the constant in the new layout. A weight passed as a
// parameter, a scheduled callee, a public one, a buffer loaded twice and
// elements of no byte width (index) are left alone.
// RUN: tir-opt %s --tir-rewrite-weight-layouts="tile=2" | FileCheck %s --check-prefix=TILE
// RUN: tir-opt %s --tir-rewrite-weight-layouts="tile=0" | FileCheck %s --check-prefix=MOVE

// TILE-LABEL: func.func private @dense(
// TILE-SAME:    %{{.*}}: memref<2x2x2xf32> {tir.name = "W"}
// TILE-NOT:     tir.declared_layout
// TILE:         tir.load %arg1[%vj floordiv 2, %vk, %vj mod 2] : memref<2x2x2xf32>
// TILE-LABEL: func.func private @dense_scheduled(
// TILE-SAME:    memref<4x2xf32>
// TILE-LABEL: func.func @dense_public(
// TILE-SAME:    memref<4x2xf32>
// TILE-LABEL: func.func private @dense_twice(
// TILE-SAME:    memref<4x2xf32>
// TILE-LABEL: func.func @main(
// TILE:         %[[W:.*]] = arith.constant dense<{{\[\[\[}}0.000000e+00, 2.000000e+00], [1.000000e+00, 3.000000e+00]], {{\[\[}}4.000000e+00, 6.000000e+00], [5.000000e+00, 7.000000e+00]]]> : tensor<2x2x2xf32>
// TILE:         tir.call_tir @dense(%arg0, %[[W]])
// TILE:         tir.call_tir @dense(%arg0, %[[W]])
// TILE:         tir.call_tir @dense_scheduled(%arg0, %{{.*}}) : (tensor<3x2xf32>, tensor<4x2xf32>)
// TILE:         tir.call_tir @dense_public(%arg0, %{{.*}}) : (tensor<3x2xf32>, tensor<4x2xf32>)
// TILE:         tir.call_tir @dense_twice(%arg0, %{{.*}}) : (tensor<3x2xf32>, tensor<4x2xf32>)
// TILE:         tir.call_tir @dense_param(%arg0, %arg1) : (tensor<3x2xf32>, tensor<4x2xf32>)
// TILE-LABEL: func.func private @dense_index(
// TILE-SAME:    %{{.*}}: memref<4x2xindex> {tir.name = "W"}
// TILE-LABEL: func.func @main_index(
// TILE:         tir.call_tir @dense_index(%arg0, %{{.*}}) : (tensor<3x2xindex>, tensor<4x2xindex>)

// MOVE-LABEL: func.func private @dense(
// MOVE-SAME:    %{{.*}}: memref<2x4xf32> {tir.name = "W"}
// MOVE:         tir.load %arg1[%vk, %vj] : memref<2x4xf32>
// MOVE-LABEL: func.func @main(
// MOVE:         arith.constant dense<{{\[\[}}0.000000e+00, 2.000000e+00, 4.000000e+00, 6.000000e+00], [1.000000e+00, 3.000000e+00, 5.000000e+00, 7.000000e+00]]> : tensor<2x4xf32>

func.func private @dense(%arg0: memref<3x2xf32> {tir.name = "A"}, %arg1: memref<4x2xf32> {tir.name = "W"}, %arg2: memref<3x4xf32> {tir.name = "C"}) {
  tir.for %i = 0 to 3 {
    tir.for %j = 0 to 4 {
      tir.for %k = 0 to 2 {
        tir.block "dense"(%vi = spatial(3, %i), %vj = spatial(4, %j), %vk = reduce(2, %k)) {
          tir.init {
            %cst = arith.constant 0.000000e+00 : f32
            tir.store %cst, %arg2[%vi, %vj] : memref<3x4xf32>
          }
          %0 = tir.load %arg2[%vi, %vj] : memref<3x4xf32>
          %1 = tir.load %arg0[%vi, %vk] : memref<3x2xf32>
          %2 = tir.load %arg1[%vj, %vk] : memref<4x2xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %0, %3 : f32
          tir.store %4, %arg2[%vi, %vj] : memref<3x4xf32>
        }
      }
    }
  }
  return
}

func.func private @dense_scheduled(%arg0: memref<3x2xf32> {tir.name = "A"}, %arg1: memref<4x2xf32> {tir.name = "W"}, %arg2: memref<3x4xf32> {tir.name = "C"}) {
  tir.for %i = 0 to 3 parallel {
    tir.for %j = 0 to 4 {
      tir.for %k = 0 to 2 {
        tir.block "dense"(%vi = spatial(3, %i), %vj = spatial(4, %j), %vk = reduce(2, %k)) {
          tir.init {
            %cst = arith.constant 0.000000e+00 : f32
            tir.store %cst, %arg2[%vi, %vj] : memref<3x4xf32>
          }
          %0 = tir.load %arg2[%vi, %vj] : memref<3x4xf32>
          %1 = tir.load %arg0[%vi, %vk] : memref<3x2xf32>
          %2 = tir.load %arg1[%vj, %vk] : memref<4x2xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %0, %3 : f32
          tir.store %4, %arg2[%vi, %vj] : memref<3x4xf32>
        }
      }
    }
  }
  return
}

func.func @dense_public(%arg0: memref<3x2xf32> {tir.name = "A"}, %arg1: memref<4x2xf32> {tir.name = "W"}, %arg2: memref<3x4xf32> {tir.name = "C"}) {
  tir.for %i = 0 to 3 {
    tir.for %j = 0 to 4 {
      tir.for %k = 0 to 2 {
        tir.block "dense"(%vi = spatial(3, %i), %vj = spatial(4, %j), %vk = reduce(2, %k)) {
          tir.init {
            %cst = arith.constant 0.000000e+00 : f32
            tir.store %cst, %arg2[%vi, %vj] : memref<3x4xf32>
          }
          %0 = tir.load %arg2[%vi, %vj] : memref<3x4xf32>
          %1 = tir.load %arg0[%vi, %vk] : memref<3x2xf32>
          %2 = tir.load %arg1[%vj, %vk] : memref<4x2xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %0, %3 : f32
          tir.store %4, %arg2[%vi, %vj] : memref<3x4xf32>
        }
      }
    }
  }
  return
}

func.func private @dense_twice(%arg0: memref<3x2xf32> {tir.name = "A"}, %arg1: memref<4x2xf32> {tir.name = "W"}, %arg2: memref<3x4xf32> {tir.name = "C"}) {
  tir.for %i = 0 to 3 {
    tir.for %j = 0 to 4 {
      tir.for %k = 0 to 2 {
        tir.block "dense"(%vi = spatial(3, %i), %vj = spatial(4, %j), %vk = reduce(2, %k)) {
          tir.init {
            %cst = arith.constant 0.000000e+00 : f32
            tir.store %cst, %arg2[%vi, %vj] : memref<3x4xf32>
          }
          %0 = tir.load %arg2[%vi, %vj] : memref<3x4xf32>
          %1 = tir.load %arg1[%vj, %vk] : memref<4x2xf32>
          %2 = tir.load %arg1[%vj, %vk] : memref<4x2xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %0, %3 : f32
          tir.store %4, %arg2[%vi, %vj] : memref<3x4xf32>
        }
      }
    }
  }
  return
}

func.func private @dense_param(%arg0: memref<3x2xf32> {tir.name = "A"}, %arg1: memref<4x2xf32> {tir.name = "W"}, %arg2: memref<3x4xf32> {tir.name = "C"}) {
  tir.for %i = 0 to 3 {
    tir.for %j = 0 to 4 {
      tir.for %k = 0 to 2 {
        tir.block "dense"(%vi = spatial(3, %i), %vj = spatial(4, %j), %vk = reduce(2, %k)) {
          tir.init {
            %cst = arith.constant 0.000000e+00 : f32
            tir.store %cst, %arg2[%vi, %vj] : memref<3x4xf32>
          }
          %0 = tir.load %arg2[%vi, %vj] : memref<3x4xf32>
          %1 = tir.load %arg0[%vi, %vk] : memref<3x2xf32>
          %2 = tir.load %arg1[%vj, %vk] : memref<4x2xf32>
          %3 = arith.mulf %1, %2 : f32
          %4 = arith.addf %0, %3 : f32
          tir.store %4, %arg2[%vi, %vj] : memref<3x4xf32>
        }
      }
    }
  }
  return
}

func.func @main(%arg0: tensor<3x2xf32> {tir.name = "x"}, %arg1: tensor<4x2xf32> {tir.name = "w"}) -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) {
  %w = arith.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]]> : tensor<4x2xf32>
  %0 = tir.call_tir @dense(%arg0, %w) : (tensor<3x2xf32>, tensor<4x2xf32>) -> tensor<3x4xf32>
  %1 = tir.call_tir @dense(%arg0, %w) : (tensor<3x2xf32>, tensor<4x2xf32>) -> tensor<3x4xf32>
  %2 = tir.call_tir @dense_scheduled(%arg0, %w) : (tensor<3x2xf32>, tensor<4x2xf32>) -> tensor<3x4xf32>
  %3 = tir.call_tir @dense_public(%arg0, %w) : (tensor<3x2xf32>, tensor<4x2xf32>) -> tensor<3x4xf32>
  %4 = tir.call_tir @dense_twice(%arg0, %w) : (tensor<3x2xf32>, tensor<4x2xf32>) -> tensor<3x4xf32>
  %5 = tir.call_tir @dense_param(%arg0, %arg1) : (tensor<3x2xf32>, tensor<4x2xf32>) -> tensor<3x4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
}

func.func private @dense_index(%arg0: memref<3x2xindex> {tir.name = "A"}, %arg1: memref<4x2xindex> {tir.name = "W"}, %arg2: memref<3x4xindex> {tir.name = "C"}) {
  tir.for %i = 0 to 3 {
    tir.for %j = 0 to 4 {
      tir.for %k = 0 to 2 {
        tir.block "dense"(%vi = spatial(3, %i), %vj = spatial(4, %j), %vk = reduce(2, %k)) {
          tir.init {
            %c0 = arith.constant 0 : index
            tir.store %c0, %arg2[%vi, %vj] : memref<3x4xindex>
          }
          %0 = tir.load %arg2[%vi, %vj] : memref<3x4xindex>
          %1 = tir.load %arg0[%vi, %vk] : memref<3x2xindex>
          %2 = tir.load %arg1[%vj, %vk] : memref<4x2xindex>
          %3 = arith.muli %1, %2 : index
          %4 = arith.addi %0, %3 : index
          tir.store %4, %arg2[%vi, %vj] : memref<3x4xindex>
        }
      }
    }
  }
  return
}

func.func @main_index(%arg0: tensor<3x2xindex> {tir.name = "x"}) -> tensor<3x4xindex> {
  %w = arith.constant dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xindex>
  %0 = tir.call_tir @dense_index(%arg0, %w) : (tensor<3x2xindex>, tensor<4x2xindex>) -> tensor<3x4xindex>
  return %0 : tensor<3x4xindex>
}
