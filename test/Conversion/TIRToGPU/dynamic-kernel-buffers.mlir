// RUN: tir-opt %s --convert-tir-to-gpu | FileCheck %s

// A row-wise function of n rows (a shape variable) scheduled a row per
// block: its per-row intermediate M has the dynamic shape (n), the part a
// block touches is one element. It moves into the kernel as one float of
// workgroup memory, the accesses shifted by the row (the block's index).
// CHECK-LABEL: func.func @rows
// CHECK-NOT:     tir.alloc_buffer
// CHECK:         gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in ({{.*}}) threads({{.*}}) in ({{.*}}) workgroup(%[[W:.*]] : memref<1xf32, #gpu.address_space<workgroup>>)
// CHECK:           tir.store %{{.*}}, %[[W]][%{{.*}} - %[[BX]]] : memref<1xf32, #gpu.address_space<workgroup>>
// CHECK:           tir.load %[[W]][%{{.*}} - %[[BX]]] : memref<1xf32, #gpu.address_space<workgroup>>
func.func @rows(%A: memref<?x32xf32> {tir.name = "A"}, %B: memref<?x32xf32> {tir.name = "B"}, %n: index) {
  %M = tir.alloc_buffer(%n) {buffer_name = "M"} : memref<?xf32, "shared">
  tir.for %b = 0 to %n thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
      tir.block "M"(%vi = spatial(%n, %b), %vj = reduce(32, %t)) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %M[%vi] : memref<?xf32, "shared">
        }
        %a = tir.load %A[%vi, %vj] : memref<?x32xf32>
        %m = tir.load %M[%vi] : memref<?xf32, "shared">
        %s = arith.addf %m, %a : f32
        tir.store %s, %M[%vi] : memref<?xf32, "shared">
      }
    }
    tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
      tir.block "B"(%vi = spatial(%n, %b), %vj = spatial(32, %t)) {
        %a = tir.load %A[%vi, %vj] : memref<?x32xf32>
        %m = tir.load %M[%vi] : memref<?xf32, "shared">
        %d = arith.divf %a, %m : f32
        tir.store %d, %B[%vi, %vj] : memref<?x32xf32>
      }
    }
  }
  return
}
