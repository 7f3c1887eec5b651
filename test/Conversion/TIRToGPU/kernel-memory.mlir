// RUN: tir-opt %s --convert-tir-to-gpu | FileCheck %s

// A tiled matrix product as bench/gpu/programs.py schedules it (32^3,
// blocks of 4 x 4 threads, 16 x 16 tiles of C, 4 x 4 per thread, k in
// steps of 4): the caches the schedule allocated at the root move into the
// kernel. C_local (local) becomes one 4 x 4 alloca per thread, its accesses
// shifted by the thread's tile start; A_shared and B_shared (shared)
// become the launch's workgroup memory, 16 x 4 and 4 x 16, seen through
// views whose offset follows the k step. Barriers go before the copies
// into shared memory (the previous step's reads) and before the reads.
// CHECK-LABEL: func.func @main
// CHECK:         gpu.launch blocks(%[[BX:.*]], %[[BY:.*]], %{{.*}}) in ({{.*}}) threads(%[[TX:.*]], %[[TY:.*]], %{{.*}}) in ({{.*}}) workgroup(%[[WB:.*]] : memref<4x16xf32, #gpu.address_space<workgroup>>, %[[WA:.*]] : memref<16x4xf32, #gpu.address_space<workgroup>>)
// CHECK-NEXT:      %[[CL:.*]] = memref.alloca() : memref<4x4xf32>
// CHECK:           tir.store %{{.*}}, %[[CL]][%{{.*}} - %[[BY]] * 16 - %[[TY]] * 4, %{{.*}} - %[[BX]] * 16 - %[[TX]] * 4] : memref<4x4xf32>
// CHECK:           tir.for %[[K:.*]] = 0 to 8 {
// CHECK-NEXT:        gpu.barrier
// CHECK:             %[[VB:.*]] = memref.reinterpret_cast %[[WB]] to offset: [%{{.*}}], sizes: [32, 32], strides: [16, 1]
// CHECK:             %[[VA:.*]] = memref.reinterpret_cast %[[WA]] to offset: [%{{.*}}], sizes: [32, 32], strides: [4, 1]
// CHECK-NEXT:        tir.for
// CHECK-NOT:         gpu.barrier
// CHECK:               tir.store %{{.*}}, %[[VA]]
// CHECK-NOT:         gpu.barrier
// CHECK:             tir.for
// CHECK-NOT:         gpu.barrier
// CHECK:               tir.store %{{.*}}, %[[VB]]
// CHECK:             gpu.barrier
// CHECK-NEXT:        tir.for %{{.*}} = 0 to 4 unrolled {
// CHECK:                 tir.load %[[VA]]
// CHECK:                 tir.load %[[VB]]
// CHECK-NOT:       gpu.barrier
// CHECK:           tir.block "C_local"
// CHECK-NEXT:        tir.load %[[CL]]
// CHECK-NOT:     tir.alloc_buffer
module {
  func.func @main(%arg0: memref<32x32xf32> {tir.name = "A"}, %arg1: memref<32x32xf32> {tir.name = "B"}, %arg2: memref<32x32xf32> {tir.name = "C"}) {
    %C_local = tir.alloc_buffer : memref<32x32xf32, "local">
    %A_shared = tir.alloc_buffer : memref<32x32xf32, "shared">
    %B_shared = tir.alloc_buffer : memref<32x32xf32, "shared">
    tir.for %i_0 = 0 to 2 thread_binding<"blockIdx.y"> {
      tir.for %j_0 = 0 to 2 thread_binding<"blockIdx.x"> {
        tir.for %i_1 = 0 to 4 thread_binding<"threadIdx.y"> {
          tir.for %j_1 = 0 to 4 thread_binding<"threadIdx.x"> {
            tir.for %i_2_init = 0 to 4 unrolled {
              tir.for %j_2_init = 0 to 4 unrolled {
                tir.block "C_init"(%vi = spatial(32, %i_0 * 16 + %i_1 * 4 + %i_2_init), %vj = spatial(32, %j_0 * 16 + %j_1 * 4 + %j_2_init)) reads() writes(%C_local[%vi, %vj] : memref<32x32xf32, "local">) {
                  %cst = arith.constant 0.000000e+00 : f32
                  tir.store %cst, %C_local[%vi, %vj] : memref<32x32xf32, "local">
                }
              }
            }
            tir.for %r_0 = 0 to 8 {
              tir.for %ax0_ax1_fused_0 = 0 to 4 {
                tir.for %ax0_ax1_fused_1 = 0 to 4 thread_binding<"threadIdx.y"> {
                  tir.for %ax0_ax1_fused_2 = 0 to 4 thread_binding<"threadIdx.x"> {
                    tir.block "A_shared"(%v0 = spatial(32, %i_0 * 16 + %ax0_ax1_fused_0 * 4 + %ax0_ax1_fused_1), %v1 = spatial(32, %r_0 * 4 + %ax0_ax1_fused_2)) reads(%arg0[%v0, %v1] : memref<32x32xf32>) writes(%A_shared[%v0, %v1] : memref<32x32xf32, "shared">) {
                      %0 = tir.load %arg0[%v0, %v1] : memref<32x32xf32>
                      tir.store %0, %A_shared[%v0, %v1] : memref<32x32xf32, "shared">
                    }
                  }
                }
              }
              tir.for %ax0_ax1_fused_0 = 0 to 4 {
                tir.for %ax0_ax1_fused_1 = 0 to 4 thread_binding<"threadIdx.y"> {
                  tir.for %ax0_ax1_fused_2 = 0 to 4 thread_binding<"threadIdx.x"> {
                    tir.block "B_shared"(%v0 = spatial(32, %r_0 * 4 + %ax0_ax1_fused_0), %v1 = spatial(32, %j_0 * 16 + %ax0_ax1_fused_1 * 4 + %ax0_ax1_fused_2)) reads(%arg1[%v0, %v1] : memref<32x32xf32>) writes(%B_shared[%v0, %v1] : memref<32x32xf32, "shared">) {
                      %0 = tir.load %arg1[%v0, %v1] : memref<32x32xf32>
                      tir.store %0, %B_shared[%v0, %v1] : memref<32x32xf32, "shared">
                    }
                  }
                }
              }
              tir.for %r_1 = 0 to 4 unrolled {
                tir.for %i_2 = 0 to 4 unrolled {
                  tir.for %j_2 = 0 to 4 unrolled {
                    tir.block "C_update"(%vi = spatial(32, %i_0 * 16 + %i_1 * 4 + %i_2), %vj = spatial(32, %j_0 * 16 + %j_1 * 4 + %j_2), %vk = reduce(32, %r_0 * 4 + %r_1)) reads(%C_local[%vi, %vj], %A_shared[%vi, %vk], %B_shared[%vk, %vj] : memref<32x32xf32, "local">, memref<32x32xf32, "shared">, memref<32x32xf32, "shared">) writes(%C_local[%vi, %vj] : memref<32x32xf32, "local">) {
                      %0 = tir.load %C_local[%vi, %vj] : memref<32x32xf32, "local">
                      %1 = tir.load %A_shared[%vi, %vk] : memref<32x32xf32, "shared">
                      %2 = tir.load %B_shared[%vk, %vj] : memref<32x32xf32, "shared">
                      %3 = arith.mulf %1, %2 : f32
                      %4 = arith.addf %0, %3 : f32
                      tir.store %4, %C_local[%vi, %vj] : memref<32x32xf32, "local">
                    }
                  }
                }
              }
            }
            tir.for %ax0 = 0 to 4 unrolled {
              tir.for %ax1 = 0 to 4 unrolled {
                tir.block "C_local"(%v0 = spatial(32, %i_0 * 16 + %i_1 * 4 + %ax0), %v1 = spatial(32, %j_0 * 16 + %j_1 * 4 + %ax1)) reads(%C_local[%v0, %v1] : memref<32x32xf32, "local">) writes(%arg2[%v0, %v1] : memref<32x32xf32>) {
                  %0 = tir.load %C_local[%v0, %v1] : memref<32x32xf32, "local">
                  tir.store %0, %arg2[%v0, %v1] : memref<32x32xf32>
                }
              }
            }
          }
        }
      }
    }
    return
  }
}

