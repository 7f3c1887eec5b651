// An LLVM 22 bug: on this kernel (schedule-diff seed 78, flat_views after
// split and reorder of U) the SLP vectorizer and SROA leave invalid IR for
// AVX-512 CPUs, and code generation crashed (SIGSEGV in the register
// coalescer). tir verifies the optimized module and optimizes it again
// without the SLP vectorizer. Compiled for named CPUs, not run (the host
// may lack them).
// RUN: tir-run --target-cpu=znver4 --export %t-znver4.so %s | FileCheck %s
// RUN: tir-run --target-cpu=emeraldrapids --export %t-emr.so %s | FileCheck %s
// CHECK: wrote

module {
  func.func @main(%arg0: memref<4x3x5xi32> {tir.name = "A"}, %arg1: memref<60xi32> {tir.name = "B"}, %arg2: memref<10x6xi32> {tir.name = "C"}) {
    %S = tir.alloc_buffer : memref<4x3x5xi32>
    %U = tir.alloc_buffer : memref<10x6xi32>
    tir.for %i = 0 to 4 {
      tir.for %j = 0 to 3 {
        tir.for %k = 0 to 5 {
          tir.block "S"(%vi = spatial(4, %i), %vj = spatial(3, %j), %vk = spatial(5, %k)) {
            %0 = tir.load %arg0[%vi, %vj, %vk] : memref<4x3x5xi32>
            %c3_i32 = arith.constant 3 : i32
            %1 = arith.muli %0, %c3_i32 : i32
            %2 = arith.index_cast %vk : index to i32
            %3 = arith.subi %1, %2 : i32
            tir.store %3, %S[%vi, %vj, %vk] : memref<4x3x5xi32>
          }
        }
      }
    }
    tir.for %f = 0 to 60 {
      tir.block "B"(%v = spatial(60, %f)) {
        %0 = tir.load %S[%v floordiv 15, (%v mod 15) floordiv 5, %v mod 5] : memref<4x3x5xi32>
        %1 = arith.index_cast %v : index to i32
        %2 = arith.addi %0, %1 : i32
        tir.store %2, %arg1[%v] : memref<60xi32>
      }
    }
    tir.for %g_2 = 0 to 20 {
      tir.for %g_1 = 0 to 2 {
        tir.for %g_0 = 0 to 2 {
          tir.block "U"(%v = spatial(60, %g_0 * 40 + %g_1 * 20 + %g_2)) where(%g_0 * 40 + %g_1 * 20 + %g_2 < 60) {
            %0 = tir.load %arg1[%v] : memref<60xi32>
            %c2_i32 = arith.constant 2 : i32
            %1 = arith.muli %0, %c2_i32 : i32
            tir.store %1, %U[%v floordiv 6, %v mod 6] : memref<10x6xi32>
          }
        }
      }
    }
    tir.for %i = 0 to 10 {
      tir.for %j = 0 to 6 {
        tir.block "C"(%vi = spatial(10, %i), %vj = spatial(6, %j)) {
          %0 = tir.load %U[%vi, %vj] : memref<10x6xi32>
          %1 = arith.index_cast %vi : index to i32
          %2 = arith.subi %0, %1 : i32
          tir.store %2, %arg2[%vi, %vj] : memref<10x6xi32>
        }
      }
    }
    return
  }
}

