// RUN: tir-opt %s --tir-auto-unroll --split-input-file | FileCheck %s

// Under pragma_auto_unroll_max_step = 64, the innermost loops whose
// unrolled body repeats at most 64 stores are marked unrolled (k: 8 x 2
// stores, the init's included; j: 4 x 16); i (16 x 64) and the parallel
// loop stay loops. The pragmas are gone; each unrolled loop carries
// "unroll_limit" = 0, the pragma's budget being its limit.
// CHECK-LABEL: func.func @gemm
// CHECK:         tir.for %p = 0 to 4 parallel {
// CHECK-NEXT:      tir.for %i = 0 to 16 {
// CHECK-NEXT:        tir.for %j = 0 to 4 unrolled annotations {unroll_limit = 0 : i64} {
// CHECK-NEXT:          tir.for %k = 0 to 8 unrolled annotations {unroll_limit = 0 : i64} {
// CHECK-NOT:     pragma_
func.func @gemm(%A: memref<64x8xf32>, %B: memref<8x4xf32>, %C: memref<64x4xf32>) {
  tir.for %p = 0 to 4 parallel annotations {pragma_auto_unroll_max_step = 64 : i64, pragma_unroll_explicit = 1 : i64} {
    tir.for %i = 0 to 16 {
      tir.for %j = 0 to 4 {
        tir.for %k = 0 to 8 {
          tir.block "C"(%vi = spatial(64, %p * 16 + %i), %vj = spatial(4, %j), %vk = reduce(8, %k)) {
            tir.init {
              %z = arith.constant 0.0 : f32
              tir.store %z, %C[%vi, %vj] : memref<64x4xf32>
            }
            %a = tir.load %A[%vi, %vk] : memref<64x8xf32>
            %b = tir.load %B[%vk, %vj] : memref<8x4xf32>
            %c = tir.load %C[%vi, %vj] : memref<64x4xf32>
            %m = arith.mulf %a, %b : f32
            %s = arith.addf %c, %m : f32
            tir.store %s, %C[%vi, %vj] : memref<64x4xf32>
          }
        }
      }
    }
  }
  return
}

// -----

// Without the pragma, or with a limit of 0, nothing is unrolled.
// CHECK-LABEL: func.func @none
// CHECK-NOT:     unrolled
func.func @none(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  tir.for %i = 0 to 8 annotations {pragma_auto_unroll_max_step = 0 : i64} {
    tir.block "C"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

// A vectorized loop counts as its statements, once (TVM vectorizes before
// it unrolls): under a limit of 64, j (4 x 2 vector stores) and k (8 x 8)
// are unrolled around it, i (16 x 64) is not; the vectorized loop stays
// vectorized.
// CHECK-LABEL: func.func @vectorized_inside
// CHECK:         tir.for %i = 0 to 16 {
// CHECK-NEXT:      tir.for %k = 0 to 8 unrolled annotations {unroll_limit = 0 : i64} {
// CHECK-NEXT:        tir.for %j = 0 to 4 unrolled annotations {unroll_limit = 0 : i64} {
// CHECK-NEXT:          tir.for %v = 0 to 16 vectorized {
func.func @vectorized_inside(%A: memref<16x8xf32>, %B: memref<8x64xf32>, %C: memref<16x64xf32>) {
  tir.for %i = 0 to 16 annotations {pragma_auto_unroll_max_step = 64 : i64, pragma_unroll_explicit = 1 : i64} {
    tir.for %k = 0 to 8 {
      tir.for %j = 0 to 4 {
        tir.for %v = 0 to 16 vectorized {
          tir.block "C"(%vi = spatial(16, %i), %vj = spatial(64, %j * 16 + %v), %vk = reduce(8, %k)) {
            tir.init {
              %z = arith.constant 0.0 : f32
              tir.store %z, %C[%vi, %vj] : memref<16x64xf32>
            }
            %a = tir.load %A[%vi, %vk] : memref<16x8xf32>
            %b = tir.load %B[%vk, %vj] : memref<8x64xf32>
            %c = tir.load %C[%vi, %vj] : memref<16x64xf32>
            %m = arith.mulf %a, %b : f32
            %s = arith.addf %c, %m : f32
            tir.store %s, %C[%vi, %vj] : memref<16x64xf32>
          }
        }
      }
    }
  }
  return
}

// -----

// A vectorized loop around a loop is its body to the loops around it (TVM
// vectorizes the body of the inner loop): r (2 statements) and i (4 x 2)
// are unrolled.
// CHECK-LABEL: func.func @vectorized_around_a_loop
// CHECK:         tir.for %i = 0 to 4 unrolled annotations {unroll_limit = 0 : i64} {
// CHECK-NEXT:      tir.for %v = 0 to 16 vectorized {
// CHECK-NEXT:        tir.for %r = 0 to 2 unrolled annotations {keep = 1 : i64, unroll_limit = 0 : i64}
func.func @vectorized_around_a_loop(%A: memref<4x16x2xf32>) {
  tir.for %i = 0 to 4 annotations {pragma_auto_unroll_max_step = 64 : i64} {
    tir.for %v = 0 to 16 vectorized {
      tir.for %r = 0 to 2 annotations {keep = 1 : i64} {
        tir.block "B"(%vi = spatial(4, %i), %vv = spatial(16, %v), %vr = spatial(2, %r)) {
          %a = tir.load %A[%vi, %vv, %vr] : memref<4x16x2xf32>
          tir.store %a, %A[%vi, %vv, %vr] : memref<4x16x2xf32>
        }
      }
    }
  }
  return
}
