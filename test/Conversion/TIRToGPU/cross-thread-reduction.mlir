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

// Grouped: a row per group of 8 lanes (threadIdx.y over 4 rows, spatial;
// threadIdx.x over a row's elements, reduced). Each group is a cluster of
// neighbouring lanes of one warp: gpu.subgroup_reduce with a cluster of 8,
// and no barrier (no shared memory is used).
// CHECK-LABEL: func.func @rows_per_group
// CHECK:         gpu.launch
// CHECK:           %[[P:.*]] = memref.alloca() : memref<f32>
// CHECK:           tir.block "M"({{.*}}) attributes {tir.thread_partial}
// CHECK:           %[[R:.*]] = gpu.subgroup_reduce {{ *}}maximumf %{{.*}} uniform cluster(size = 8) : (f32) -> f32
// CHECK-NOT:       gpu.barrier
// CHECK:           tir.block "M_cross_thread"
// CHECK:             arith.maximumf %{{.*}}, %[[R]]
func.func @rows_per_group(%A: memref<16x64xf32> {tir.name = "A"}, %M: memref<16xf32> {tir.name = "M"}) {
  tir.for %b = 0 to 4 thread_binding<"blockIdx.x"> {
    tir.for %r = 0 to 4 thread_binding<"threadIdx.y"> {
      tir.for %ko = 0 to 8 {
        tir.for %t = 0 to 8 thread_binding<"threadIdx.x"> {
          tir.block "M"(%vi = spatial(16, %b * 4 + %r), %vk = reduce(64, %ko * 8 + %t)) {
            tir.init {
              %low = arith.constant -3.0e+38 : f32
              tir.store %low, %M[%vi] : memref<16xf32>
            }
            %a = tir.load %A[%vi, %vk] : memref<16x64xf32>
            %m = tir.load %M[%vi] : memref<16xf32>
            %x = arith.maximumf %m, %a : f32
            tir.store %x, %M[%vi] : memref<16xf32>
          }
        }
      }
    }
  }
  return
}

// The write-back of an rfactor placed by reverse_compute_at with its unit
// loops kept (dlight's GEMV over a row count n): loops of one iteration
// between the reduce loop bound to threadIdx.x and the block are part of
// the nest. The copy after it takes them at their only value.
// CHECK-LABEL: func.func @unit_loops_in_the_nest
// CHECK:         gpu.launch
// CHECK:           %[[P:.*]] = memref.alloca() : memref<f32>
// CHECK:           tir.block "C"({{.*}}) attributes {tir.thread_partial}
// CHECK:           %[[R:.*]] = gpu.all_reduce add %{{.*}} uniform
// CHECK:           tir.block "C_cross_thread"
// CHECK:             arith.addf %{{.*}}, %[[R]]
func.func @unit_loops_in_the_nest(%R: memref<32x?xf32> {tir.name = "R"}, %C: memref<?xf32> {tir.name = "C"}) {
  %c1 = arith.constant 1 : index
  %n = memref.dim %R, %c1 : memref<32x?xf32>
  tir.for %f = 0 to %n thread_binding<"blockIdx.x"> {
    tir.for %t = 0 to 32 thread_binding<"threadIdx.x"> {
      tir.for %u = 0 to 1 {
        tir.block "C"(%vk = reduce(32, %t), %vj = spatial(%n, %f + %u)) {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %C[%vj] : memref<?xf32>
          }
          %r = tir.load %R[%vk, %vj] : memref<32x?xf32>
          %c = tir.load %C[%vj] : memref<?xf32>
          %sum = arith.addf %c, %r : f32
          tir.store %sum, %C[%vj] : memref<?xf32>
        }
      }
    }
  }
  return
}
