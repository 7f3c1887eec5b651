// A 1024^3 fp32 matrix product scheduled for a GPU as
// bench/gpu/programs.py's schedule_matmul_tiled does it: 16 x 16 threads
// per block compute a 128 x 128 tile of C, each thread an 8 x 8 tile held
// in registers (cache_write "local", loops unrolled); 128 x 8 tiles of A
// and 8 x 128 tiles of B go through shared memory (cache_read "shared" at
// the k loop), copied by all the block's threads together (the copies'
// loops bound to threadIdx again). convert-tir-to-gpu moves the caches
// into the kernel, compacted (8 x 8 registers, 128 x 8 and 8 x 128 floats
// of shared memory) and puts barriers around the copies.
module {
  func.func @main(%arg0: memref<1024x1024xf32> {tir.name = "A"}, %arg1: memref<1024x1024xf32> {tir.name = "B"}, %arg2: memref<1024x1024xf32> {tir.name = "C"}) {
    %C_local = tir.alloc_buffer : memref<1024x1024xf32, "local">
    %A_shared = tir.alloc_buffer : memref<1024x1024xf32, "shared">
    %B_shared = tir.alloc_buffer : memref<1024x1024xf32, "shared">
    tir.for %i_0 = 0 to 8 thread_binding<"blockIdx.y"> {
      tir.for %j_0 = 0 to 8 thread_binding<"blockIdx.x"> {
        tir.for %i_1 = 0 to 16 thread_binding<"threadIdx.y"> {
          tir.for %j_1 = 0 to 16 thread_binding<"threadIdx.x"> {
            tir.for %i_2_init = 0 to 8 unrolled {
              tir.for %j_2_init = 0 to 8 unrolled {
                tir.block "C_init"(%vi = spatial(1024, %i_0 * 128 + %i_1 * 8 + %i_2_init), %vj = spatial(1024, %j_0 * 128 + %j_1 * 8 + %j_2_init)) reads() writes(%C_local[%vi, %vj] : memref<1024x1024xf32, "local">) {
                  %cst = arith.constant 0.000000e+00 : f32
                  tir.store %cst, %C_local[%vi, %vj] : memref<1024x1024xf32, "local">
                }
              }
            }
            tir.for %r_0 = 0 to 128 {
              tir.for %ax0_ax1_fused_0 = 0 to 4 {
                tir.for %ax0_ax1_fused_1 = 0 to 16 thread_binding<"threadIdx.y"> {
                  tir.for %ax0_ax1_fused_2 = 0 to 16 thread_binding<"threadIdx.x"> {
                    tir.block "A_shared"(%v0 = spatial(1024, %i_0 * 128 + %ax0_ax1_fused_0 * 32 + %ax0_ax1_fused_1 * 2 + %ax0_ax1_fused_2 floordiv 8), %v1 = spatial(1024, %r_0 * 8 + %ax0_ax1_fused_2 mod 8)) reads(%arg0[%v0, %v1] : memref<1024x1024xf32>) writes(%A_shared[%v0, %v1] : memref<1024x1024xf32, "shared">) {
                      %0 = tir.load %arg0[%v0, %v1] : memref<1024x1024xf32>
                      tir.store %0, %A_shared[%v0, %v1] : memref<1024x1024xf32, "shared">
                    }
                  }
                }
              }
              tir.for %ax0_ax1_fused_0 = 0 to 4 {
                tir.for %ax0_ax1_fused_1 = 0 to 16 thread_binding<"threadIdx.y"> {
                  tir.for %ax0_ax1_fused_2 = 0 to 16 thread_binding<"threadIdx.x"> {
                    tir.block "B_shared"(%v0 = spatial(1024, %r_0 * 8 + %ax0_ax1_fused_0 * 2 + (%ax0_ax1_fused_1 * 16 + %ax0_ax1_fused_2) floordiv 128), %v1 = spatial(1024, %j_0 * 128 + (%ax0_ax1_fused_1 * 16 + %ax0_ax1_fused_2) mod 128)) reads(%arg1[%v0, %v1] : memref<1024x1024xf32>) writes(%B_shared[%v0, %v1] : memref<1024x1024xf32, "shared">) {
                      %0 = tir.load %arg1[%v0, %v1] : memref<1024x1024xf32>
                      tir.store %0, %B_shared[%v0, %v1] : memref<1024x1024xf32, "shared">
                    }
                  }
                }
              }
              tir.for %r_1 = 0 to 8 unrolled {
                tir.for %i_2 = 0 to 8 unrolled {
                  tir.for %j_2 = 0 to 8 unrolled {
                    tir.block "C_update"(%vi = spatial(1024, %i_0 * 128 + %i_1 * 8 + %i_2), %vj = spatial(1024, %j_0 * 128 + %j_1 * 8 + %j_2), %vk = reduce(1024, %r_0 * 8 + %r_1)) reads(%C_local[%vi, %vj], %A_shared[%vi, %vk], %B_shared[%vk, %vj] : memref<1024x1024xf32, "local">, memref<1024x1024xf32, "shared">, memref<1024x1024xf32, "shared">) writes(%C_local[%vi, %vj] : memref<1024x1024xf32, "local">) {
                      %0 = tir.load %C_local[%vi, %vj] : memref<1024x1024xf32, "local">
                      %1 = tir.load %A_shared[%vi, %vk] : memref<1024x1024xf32, "shared">
                      %2 = tir.load %B_shared[%vk, %vj] : memref<1024x1024xf32, "shared">
                      %3 = arith.mulf %1, %2 : f32
                      %4 = arith.addf %0, %3 : f32
                      tir.store %4, %C_local[%vi, %vj] : memref<1024x1024xf32, "local">
                    }
                  }
                }
              }
            }
            tir.for %ax0 = 0 to 8 unrolled {
              tir.for %ax1 = 0 to 8 unrolled {
                tir.block "C_local"(%v0 = spatial(1024, %i_0 * 128 + %i_1 * 8 + %ax0), %v1 = spatial(1024, %j_0 * 128 + %j_1 * 8 + %ax1)) reads(%C_local[%v0, %v1] : memref<1024x1024xf32, "local">) writes(%arg2[%v0, %v1] : memref<1024x1024xf32>) {
                  %0 = tir.load %C_local[%v0, %v1] : memref<1024x1024xf32, "local">
                  tir.store %0, %arg2[%v0, %v1] : memref<1024x1024xf32>
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
