// RUN: tir-opt %s --tir-reassociate-reductions | FileCheck %s
// RUN: tir-opt %s --tir-lower-to-llvm="reassociate-reductions=true" | FileCheck %s --check-prefix=LLVM
// RUN: tir-opt %s --tir-lower-to-llvm | FileCheck %s --check-prefix=EXACT

// A row sum and a row max: their updates' combiners may be reordered. The
// scaled copy (no reduce variable) and an update that stores what it did
// not load keep their order.
// CHECK-LABEL: func.func @rows
// CHECK: tir.block "sum"
// CHECK: arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
// CHECK: tir.block "max"
// CHECK: arith.maximumf %{{.*}}, %{{.*}} fastmath<reassoc> : f32
// CHECK: tir.block "other"
// CHECK: arith.addf %{{.*}}, %{{.*}} : f32
// CHECK: tir.block "scale"
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// LLVM: llvm.fadd %{{.*}}, %{{.*}} {fastmathFlags = #llvm.fastmath<reassoc>} : f32
// EXACT-NOT: fastmath<reassoc>
func.func @rows(%A: memref<4x8xf32>, %S: memref<4xf32>, %M: memref<4xf32>,
                %O: memref<4xf32>, %B: memref<4x8xf32>) {
  tir.for %i = 0 to 4 {
    tir.for %k = 0 to 8 {
      tir.block "sum"(%vi = spatial(4, %i), %vk = reduce(8, %k)) {
        %s = tir.load %S[%vi] : memref<4xf32>
        %a = tir.load %A[%vi, %vk] : memref<4x8xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[%vi] : memref<4xf32>
      }
    }
  }
  tir.for %i = 0 to 4 {
    tir.for %k = 0 to 8 {
      tir.block "max"(%vi = spatial(4, %i), %vk = reduce(8, %k)) {
        %a = tir.load %A[%vi, %vk] : memref<4x8xf32>
        %m = tir.load %M[%vi] : memref<4xf32>
        %t = arith.maximumf %a, %m : f32
        tir.store %t, %M[%vi] : memref<4xf32>
      }
    }
  }
  tir.for %i = 0 to 4 {
    tir.for %k = 0 to 8 {
      tir.block "other"(%vi = spatial(4, %i), %vk = reduce(8, %k)) {
        %s = tir.load %S[%vi] : memref<4xf32>
        %a = tir.load %A[%vi, %vk] : memref<4x8xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %O[%vi] : memref<4xf32>
      }
    }
  }
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 8 {
      tir.block "scale"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<4x8xf32>
        %t = arith.mulf %a, %a : f32
        tir.store %t, %B[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
  return
}
