// RUN: tir-opt %s --convert-tir-to-gpu | FileCheck %s

// A thread's accumulators written at (t + b) under a k loop and read at
// (b), t the variable of a threadIdx.y loop of one iteration (a block of
// one warpgroup): the bounds of the two regions differ by t, which is 0.
// The terms both share (b) cancel before the difference is bounded
// (evaluated as intervals they would not: b - (t + b) in [-3, 3]), and
// the buffer is one element per thread.
// CHECK-LABEL: func.func @unit_thread_loop
// CHECK:         gpu.launch
// CHECK:           memref.alloca() : memref<1xf32>
func.func @unit_thread_loop(%A: memref<4x8xf32>, %B: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %S = tir.alloc_buffer {buffer_name = "S"} : memref<4xf32, "local">
  tir.for %b = 0 to 4 thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 1 thread_binding<"threadIdx.y"> {
      tir.block "init"(%vi = spatial(4, %t + %b)) {
        tir.store %zero, %S[%vi] : memref<4xf32, "local">
      }
      tir.for %k = 0 to 8 {
        tir.block "update"(%vi = spatial(4, %t + %b), %vk = reduce(8, %k)) {
          %s = tir.load %S[%vi] : memref<4xf32, "local">
          %a = tir.load %A[%vi, %vk] : memref<4x8xf32>
          %r = arith.addf %s, %a : f32
          tir.store %r, %S[%vi] : memref<4xf32, "local">
        }
      }
      tir.block "store"(%vi = spatial(4, %b)) {
        %s = tir.load %S[%vi] : memref<4xf32, "local">
        tir.store %s, %B[%vi] : memref<4xf32>
      }
    }
  }
  return
}
