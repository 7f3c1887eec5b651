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

// A split loop's guard in its fewest terms: the inner loops' share of
// `i * 16 + j * 4 + k < 1024` cannot move the bound on i; a bound on a
// quotient becomes one on its dividend, tightened by the bound on the
// remainder beside it (TVM's `f < 4048`); a sum whose terms all count
// stays; a constraint that always holds goes.
// CHECK-LABEL: func.func @predicate
func.func @predicate(%A: memref<1024x1024xf32>) {
  tir.for %f = 0 to 8192 {
    tir.for %j = 0 to 4 {
      tir.for %k = 0 to 4 {
        tir.for %l = 0 to 32 {
          // CHECK: tir.block "P"{{.*}} where(%f < 4048 and %f mod 64 < 16 and %j + %f floordiv 64 * 4 < 250 and %k + %l < 30)
          tir.block "P"(%vi = spatial(1024, (%f floordiv 64) * 16 + %j * 4 + %k), %vj = spatial(1024, (%f mod 64) * 32 + %l)) where ((%f floordiv 64) * 16 + %j * 4 + %k < 1024 and (%f mod 64) * 32 + %l < 512 and %l < 32 and (%f floordiv 64) * 16 + %j * 4 + %k < 1000 and %k + %l < 30) {
            %x = tir.load %A[%vi, %vj] : memref<1024x1024xf32>
            tir.store %x, %A[%vi, %vj] : memref<1024x1024xf32>
          }
        }
      }
    }
  }
  return
}

// A predicate that always holds goes.
// CHECK-LABEL: func.func @always
func.func @always(%A: memref<64xf32>) {
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 16 {
      // CHECK: tir.block "Q"(%v = spatial(64, %i * 16 + %j)) {
      tir.block "Q"(%v = spatial(64, %i * 16 + %j)) where (%i * 16 + %j < 64) {
        %x = tir.load %A[%v] : memref<64xf32>
        tir.store %x, %A[%v] : memref<64xf32>
      }
    }
  }
  return
}
