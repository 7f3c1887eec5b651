// RUN: tir-opt %s --convert-tir-to-gpu | FileCheck %s

// A row sum bound to 32 threads: each thread reduces its elements into a
// private partial value (no init, no access of S), gpu.all_reduce combines
// the threads' values, a barrier follows, and a copy of the block writes
// the init's value combined with the result, without reading S.
// CHECK-LABEL: func.func @row_sum
// CHECK:         gpu.launch
// CHECK:           %[[P:.*]] = memref.alloca() : memref<f32>
// CHECK:           memref.store %{{.*}}, %[[P]][] : memref<f32>
// CHECK:           tir.for %{{.*}} = 0 to 4 {
// CHECK:             tir.block "S"({{.*}}) attributes {tir.thread_partial} {
// CHECK-NOT:           tir.init
// CHECK:               memref.load %[[P]][]
// CHECK:               memref.store %{{.*}}, %[[P]][]
// CHECK:           %[[MINE:.*]] = memref.load %[[P]][]
// CHECK:           %[[R:.*]] = gpu.all_reduce add %[[MINE]] uniform
// CHECK:           gpu.barrier
// CHECK:           tir.block "S_cross_thread"
// CHECK-NOT:         tir.init
// CHECK-NOT:         tir.load %{{.*}}S
// CHECK:             %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:             %[[SUM:.*]] = arith.addf %[[ZERO]], %[[R]]
// CHECK:             tir.store %[[SUM]], %{{.*}}[%{{.*}}] : memref<8xf32>
func.func @row_sum(%A: memref<8x128xf32> {tir.name = "A"}, %S: memref<8xf32> {tir.name = "S"}) {
  tir.for %b = 0 to 8 thread_binding<"blockIdx.x"> {
    tir.for %ko = 0 to 4 {
      tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
        tir.block "S"(%vi = spatial(8, %b), %vk = reduce(128, %ko * 32 + %t)) {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %S[%vi] : memref<8xf32>
          }
          %a = tir.load %A[%vi, %vk] : memref<8x128xf32>
          %s = tir.load %S[%vi] : memref<8xf32>
          %sum = arith.addf %s, %a : f32
          tir.store %sum, %S[%vi] : memref<8xf32>
        }
      }
    }
  }
  return
}
