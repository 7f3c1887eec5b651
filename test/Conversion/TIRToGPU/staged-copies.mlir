// RUN: tir-opt %s --convert-tir-to-gpu | FileCheck %s

// A matrix product whose copies into shared memory are staged through
// registers (bench/gpu/programs.py, staged=True; 32^3, 16 x 16 tiles,
// 4 x 4 threads, k in steps of 8): A_local and B_local are cache_read
// "local" of the shared copies, laid out one k step per row, and their
// write and read nests each re-bind threadIdx.x / .y. Those loops run in
// the thread of the kernel's own threadIdx loops, so each local buffer is
// the part one thread touches (not the whole tile), and the k step's
// dimension, one element, is index 0: constant indices for registers,
// no view at a moving offset. The k loop is pipelined (stages
// [0, 0, 0, 0, 1]): a step loads the next tiles into registers, updates
// with the current ones, then stores the registers into shared memory
// (one buffer each: a barrier before the update, one after it).
// CHECK-LABEL: func.func @gemm
// CHECK:         gpu.launch {{.*}} workgroup(%{{.*}} : memref<8x16xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x8xf32, #gpu.address_space<workgroup>>)
// CHECK:           %[[B:.*]] = memref.alloca() : memref<1x8x4xf32>
// CHECK-NEXT:      %[[A:.*]] = memref.alloca() : memref<1x9x4xf32>
// CHECK-NOT:       memref.reinterpret_cast %[[A]]
// CHECK-NOT:       memref.reinterpret_cast %[[B]]
// CHECK:           tir.block "A_local"
// CHECK:             tir.store %{{.*}}, %[[A]][0, %{{.*}}] : memref<1x9x4xf32>
// CHECK:           tir.block "B_local"
// CHECK:             tir.store %{{.*}}, %[[B]][0, %{{.*}}] : memref<1x8x4xf32>
// CHECK:           gpu.barrier
// CHECK-NEXT:      tir.for %{{.*}} = 1 to 4 {
// CHECK:             tir.block "A_local"
// CHECK:             tir.block "B_local"
// CHECK:             gpu.barrier
// CHECK:             tir.block "C_update"
// CHECK:             gpu.barrier
// CHECK:             tir.block "A_shared"
// CHECK-NEXT:          tir.load %[[A]][0,
// CHECK:             tir.block "B_shared"
// CHECK-NEXT:          tir.load %[[B]][0,
module {
  func.func @gemm(%arg0: memref<32x32xf32> {tir.name = "A"}, %arg1: memref<32x32xf32> {tir.name = "B"}, %arg2: memref<32x32xf32> {tir.name = "C"}) {
    %C_local = tir.alloc_buffer : memref<32x32xf32, "local">
    %A_shared = tir.alloc_buffer : memref<32x32xf32, "shared">
    %B_shared = tir.alloc_buffer : memref<32x32xf32, "shared">
    %A_local = tir.alloc_buffer : memref<4x32x8xf32, "local">
    %B_local = tir.alloc_buffer : memref<4x8x32xf32, "local">
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
            tir.for %r_0 = 0 to 4 annotations {software_pipeline_order = [0, 3, 1, 4, 2], software_pipeline_stage = [0, 0, 0, 0, 1]} {
              tir.for %ax0_ax1_fused_0 = 0 to 2 unrolled {
                tir.for %ax0_ax1_fused_1 = 0 to 4 thread_binding<"threadIdx.y"> {
                  tir.for %ax0_ax1_fused_2 = 0 to 4 thread_binding<"threadIdx.x"> {
                    tir.for %ax0_ax1_fused_3 = 0 to 4 vectorized {
                      tir.block "A_local"(%v0 = spatial(32, %i_0 * 16 + %ax0_ax1_fused_0 * 8 + %ax0_ax1_fused_1 * 2 + %ax0_ax1_fused_2 floordiv 2), %v1 = spatial(32, %r_0 * 8 + %ax0_ax1_fused_3 + %ax0_ax1_fused_2 mod 2 * 4)) reads(%arg0[%v0, %v1] : memref<32x32xf32>) writes(%A_local[%v1 floordiv 8, %v0, %v1 mod 8] : memref<4x32x8xf32, "local">) {
                        %0 = tir.load %arg0[%v0, %v1] : memref<32x32xf32>
                        tir.store %0, %A_local[%v1 floordiv 8, %v0, %v1 mod 8] : memref<4x32x8xf32, "local">
                      }
                    }
                  }
                }
              }
              tir.for %ax0_ax1_fused_0 = 0 to 2 unrolled {
                tir.for %ax0_ax1_fused_1 = 0 to 4 thread_binding<"threadIdx.y"> {
                  tir.for %ax0_ax1_fused_2 = 0 to 4 thread_binding<"threadIdx.x"> {
                    tir.for %ax0_ax1_fused_3 = 0 to 4 vectorized {
                      tir.block "A_shared"(%v0 = spatial(32, %i_0 * 16 + %ax0_ax1_fused_0 * 8 + %ax0_ax1_fused_1 * 2 + %ax0_ax1_fused_2 floordiv 2), %v1 = spatial(32, %r_0 * 8 + %ax0_ax1_fused_3 + %ax0_ax1_fused_2 mod 2 * 4)) reads(%A_local[%v1 floordiv 8, %v0, %v1 mod 8] : memref<4x32x8xf32, "local">) writes(%A_shared[%v0, %v1] : memref<32x32xf32, "shared">) {
                        %0 = tir.load %A_local[%v1 floordiv 8, %v0, %v1 mod 8] : memref<4x32x8xf32, "local">
                        tir.store %0, %A_shared[%v0, %v1] : memref<32x32xf32, "shared">
                      }
                    }
                  }
                }
              }
              tir.for %ax0_ax1_fused_0 = 0 to 2 unrolled {
                tir.for %ax0_ax1_fused_1 = 0 to 4 thread_binding<"threadIdx.y"> {
                  tir.for %ax0_ax1_fused_2 = 0 to 4 thread_binding<"threadIdx.x"> {
                    tir.for %ax0_ax1_fused_3 = 0 to 4 vectorized {
                      tir.block "B_local"(%v0 = spatial(32, %r_0 * 8 + %ax0_ax1_fused_0 * 4 + %ax0_ax1_fused_1), %v1 = spatial(32, %j_0 * 16 + %ax0_ax1_fused_2 * 4 + %ax0_ax1_fused_3)) reads(%arg1[%v0, %v1] : memref<32x32xf32>) writes(%B_local[%v0 floordiv 8, %v0 mod 8, %v1] : memref<4x8x32xf32, "local">) {
                        %0 = tir.load %arg1[%v0, %v1] : memref<32x32xf32>
                        tir.store %0, %B_local[%v0 floordiv 8, %v0 mod 8, %v1] : memref<4x8x32xf32, "local">
                      }
                    }
                  }
                }
              }
              tir.for %ax0_ax1_fused_0 = 0 to 2 unrolled {
                tir.for %ax0_ax1_fused_1 = 0 to 4 thread_binding<"threadIdx.y"> {
                  tir.for %ax0_ax1_fused_2 = 0 to 4 thread_binding<"threadIdx.x"> {
                    tir.for %ax0_ax1_fused_3 = 0 to 4 vectorized {
                      tir.block "B_shared"(%v0 = spatial(32, %r_0 * 8 + %ax0_ax1_fused_0 * 4 + %ax0_ax1_fused_1), %v1 = spatial(32, %j_0 * 16 + %ax0_ax1_fused_2 * 4 + %ax0_ax1_fused_3)) reads(%B_local[%v0 floordiv 8, %v0 mod 8, %v1] : memref<4x8x32xf32, "local">) writes(%B_shared[%v0, %v1] : memref<32x32xf32, "shared">) {
                        %0 = tir.load %B_local[%v0 floordiv 8, %v0 mod 8, %v1] : memref<4x8x32xf32, "local">
                        tir.store %0, %B_shared[%v0, %v1] : memref<32x32xf32, "shared">
                      }
                    }
                  }
                }
              }
              tir.for %r_1 = 0 to 8 unrolled annotations {unroll_limit = 0 : i64} {
                tir.for %i_2 = 0 to 4 unrolled {
                  tir.for %j_2 = 0 to 4 unrolled {
                    tir.block "C_update"(%vi = spatial(32, %i_0 * 16 + %i_1 * 4 + %i_2), %vj = spatial(32, %j_0 * 16 + %j_1 * 4 + %j_2), %vk = reduce(32, %r_0 * 8 + %r_1)) reads(%C_local[%vi, %vj], %A_shared[%vi, %vk], %B_shared[%vk, %vj] : memref<32x32xf32, "local">, memref<32x32xf32, "shared">, memref<32x32xf32, "shared">) writes(%C_local[%vi, %vj] : memref<32x32xf32, "local">) {
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

