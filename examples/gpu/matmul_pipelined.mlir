// matmul_shared.mlir software-pipelined, as TVM schedules write it:
//   sch.annotate(k0, "software_pipeline_stage", [0, 0, 1])
//   sch.annotate(k0, "software_pipeline_order", [0, 1, 2])
// The k loop's copies of A and B (stage 0) run one step ahead of the
// update that uses them (stage 1). convert-tir-to-gpu compacts the shared
// tiles into the k loop, gives each two copies (the next tiles are copied
// while the current ones are read) and unrolls the steady loop by two, so
// each access names its copy: one barrier per k step instead of two, and
// none between a step's copies and its multiply-adds.
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
            tir.for %r_0 = 0 to 128 annotations {software_pipeline_order = [0, 1, 2], software_pipeline_stage = [0, 0, 1]} {
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
