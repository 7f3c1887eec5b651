// RUN: tir-opt %s --tir-simplify | FileCheck %s

// A loop of one iteration is its lower bound in the bindings; an iteration
// variable of one value is that value in the body and the regions; the
// loops, the other variables and the annotations stay.
// CHECK-LABEL: func.func @unit_loop
func.func @unit_loop(%A: memref<1x8xf32>, %B: memref<1x8xf32>) {
  // CHECK: tir.for %ax0 = 0 to 1 {
  tir.for %ax0 = 0 to 1 {
    tir.for %ax1 = 0 to 8 {
      // CHECK: tir.block "B"(%v0 = spatial(1, 0), %v1 = spatial(8, %ax1)) reads(%{{.*}}[0, %v1] : memref<1x8xf32>) writes(%{{.*}}[0, %v1] : memref<1x8xf32>)
      tir.block "B"(%v0 = spatial(1, %ax0), %v1 = spatial(8, %ax1)) reads(%A[%v0, %v1] : memref<1x8xf32>) writes(%B[%v0, %v1] : memref<1x8xf32>) {
        // CHECK-NOT: arith.constant
        // CHECK: tir.load %{{.*}}[0, %v1]
        %x = tir.load %A[%v0, %v1] : memref<1x8xf32>
        // CHECK: tir.store %{{.*}}, %{{.*}}[0, %v1]
        tir.store %x, %B[%v0, %v1] : memref<1x8xf32>
      }
    }
  }
  return
}

// Bindings simplified with the loops' ranges: a digit that cannot carry.
// CHECK-LABEL: func.func @bindings
func.func @bindings(%A: memref<64xf32>) {
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 16 {
      // CHECK: tir.block "C"(%v = spatial(64, %i * 16 + %j), %w = spatial(4, %i))
      tir.block "C"(%v = spatial(64, %i * 16 + %j), %w = spatial(4, (%i * 16 + %j) floordiv 16)) {
        %x = tir.load %A[%v] : memref<64xf32>
        tir.store %x, %A[%v] : memref<64xf32>
      }
    }
  }
  return
}
