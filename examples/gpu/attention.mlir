// Fused attention, O = softmax(Q K^T / sqrt(64)) V over 4 heads of 256
// queries, keys and values (f16 in and out, float32 inside), scheduled for
// a GPU as bench/gpu/attention_kernels.py's schedule_attention does it:
// one kernel, a block of 8 warps per 8 queries of a head (the head and the row tile
// fused on blockIdx.x), a warp per query (threadIdx.y). The block's query
// rows are staged in shared memory; a warp's 32 lanes compute the row's
// scores (S, in dynamic shared memory), its maximum (a cross-thread
// reduction in groups of 32 lanes: gpu.subgroup_reduce, warp shuffles),
// the exponentials (P, dynamic shared memory) and their sum (shuffles
// again); then each lane computes every 32nd output feature, its sum over
// the keys in a register (acc, local). convert-tir-to-gpu places the
// buffers per block (S and P: 8 rows of 256 floats each) and puts barriers
// between the stages.
module {
  func.func @main(%arg0: memref<4x256x64xf16> {tir.name = "Q"}, %arg1: memref<4x256x64xf16> {tir.name = "K"}, %arg2: memref<4x256x64xf16> {tir.name = "V"}, %arg3: memref<4x256x64xf16> {tir.name = "O"}) {
    %S = tir.alloc_buffer : memref<4x256x256xf32, "shared.dyn">
    %mx = tir.alloc_buffer : memref<4x256xf32, "shared">
    %P = tir.alloc_buffer : memref<4x256x256xf32, "shared.dyn">
    %den = tir.alloc_buffer : memref<4x256xf32, "shared">
    %acc = tir.alloc_buffer : memref<4x256x64xf32, "local">
    %Q_shared = tir.alloc_buffer : memref<4x256x64xf16, "shared">
    tir.for %h_i_0_fused = 0 to 128 thread_binding<"blockIdx.x"> {
      tir.for %ax0 = 0 to 8 thread_binding<"threadIdx.y"> {
        tir.for %ax1_0 = 0 to 2 {
          tir.for %ax1_1 = 0 to 32 thread_binding<"threadIdx.x"> {
            tir.block "Q_shared"(%v0 = spatial(4, %h_i_0_fused floordiv 32), %v1 = spatial(256, %ax0 + %h_i_0_fused mod 32 * 8), %v2 = spatial(64, %ax1_0 * 32 + %ax1_1)) reads(%arg0[%v0, %v1, %v2] : memref<4x256x64xf16>) writes(%Q_shared[%v0, %v1, %v2] : memref<4x256x64xf16, "shared">) {
              %0 = tir.load %arg0[%v0, %v1, %v2] : memref<4x256x64xf16>
              tir.store %0, %Q_shared[%v0, %v1, %v2] : memref<4x256x64xf16, "shared">
            }
          }
        }
      }
      tir.for %ax0 = 0 to 8 thread_binding<"threadIdx.y"> {
        tir.for %ax1_0 = 0 to 8 {
          tir.for %ax1_1 = 0 to 32 thread_binding<"threadIdx.x"> {
            tir.for %ax2 = 0 to 64 {
              tir.block "S"(%vh = spatial(4, %h_i_0_fused floordiv 32), %vi = spatial(256, %ax0 + %h_i_0_fused mod 32 * 8), %vj = spatial(256, %ax1_0 * 32 + %ax1_1), %vk = reduce(64, %ax2)) {
                tir.init {
                  %cst = arith.constant 0.000000e+00 : f32
                  tir.store %cst, %S[%vh, %vi, %vj] : memref<4x256x256xf32, "shared.dyn">
                }
                %0 = tir.load %S[%vh, %vi, %vj] : memref<4x256x256xf32, "shared.dyn">
                %1 = tir.load %Q_shared[%vh, %vi, %vk] : memref<4x256x64xf16, "shared">
                %2 = arith.extf %1 : f16 to f32
                %3 = tir.load %arg1[%vh, %vj, %vk] : memref<4x256x64xf16>
                %4 = arith.extf %3 : f16 to f32
                %5 = arith.mulf %2, %4 : f32
                %6 = arith.addf %0, %5 : f32
                tir.store %6, %S[%vh, %vi, %vj] : memref<4x256x256xf32, "shared.dyn">
              }
            }
          }
        }
      }
      tir.for %ax0 = 0 to 8 thread_binding<"threadIdx.y"> {
        tir.for %ax1_0 = 0 to 8 {
          tir.for %ax1_1 = 0 to 32 thread_binding<"threadIdx.x"> {
            tir.block "max"(%vh = spatial(4, %h_i_0_fused floordiv 32), %vi = spatial(256, %ax0 + %h_i_0_fused mod 32 * 8), %vj = reduce(256, %ax1_0 * 32 + %ax1_1)) {
              tir.init {
                %cst = arith.constant -3.40282347E+38 : f32
                tir.store %cst, %mx[%vh, %vi] : memref<4x256xf32, "shared">
              }
              %0 = tir.load %mx[%vh, %vi] : memref<4x256xf32, "shared">
              %1 = tir.load %S[%vh, %vi, %vj] : memref<4x256x256xf32, "shared.dyn">
              %2 = arith.maximumf %0, %1 : f32
              tir.store %2, %mx[%vh, %vi] : memref<4x256xf32, "shared">
            }
          }
        }
      }
      tir.for %ax0 = 0 to 8 thread_binding<"threadIdx.y"> {
        tir.for %ax1_0 = 0 to 8 {
          tir.for %ax1_1 = 0 to 32 thread_binding<"threadIdx.x"> {
            tir.block "P"(%vh = spatial(4, %h_i_0_fused floordiv 32), %vi = spatial(256, %ax0 + %h_i_0_fused mod 32 * 8), %vj = spatial(256, %ax1_0 * 32 + %ax1_1)) {
              %0 = tir.load %S[%vh, %vi, %vj] : memref<4x256x256xf32, "shared.dyn">
              %1 = tir.load %mx[%vh, %vi] : memref<4x256xf32, "shared">
              %2 = arith.subf %0, %1 : f32
              %cst = arith.constant 1.250000e-01 : f32
              %3 = arith.mulf %2, %cst : f32
              %4 = math.exp %3 : f32
              tir.store %4, %P[%vh, %vi, %vj] : memref<4x256x256xf32, "shared.dyn">
            }
          }
        }
      }
      tir.for %ax0 = 0 to 8 thread_binding<"threadIdx.y"> {
        tir.for %ax1_0 = 0 to 8 {
          tir.for %ax1_1 = 0 to 32 thread_binding<"threadIdx.x"> {
            tir.block "sum"(%vh = spatial(4, %h_i_0_fused floordiv 32), %vi = spatial(256, %ax0 + %h_i_0_fused mod 32 * 8), %vj = reduce(256, %ax1_0 * 32 + %ax1_1)) {
              tir.init {
                %cst = arith.constant 0.000000e+00 : f32
                tir.store %cst, %den[%vh, %vi] : memref<4x256xf32, "shared">
              }
              %0 = tir.load %den[%vh, %vi] : memref<4x256xf32, "shared">
              %1 = tir.load %P[%vh, %vi, %vj] : memref<4x256x256xf32, "shared.dyn">
              %2 = arith.addf %0, %1 : f32
              tir.store %2, %den[%vh, %vi] : memref<4x256xf32, "shared">
            }
          }
        }
      }
      tir.for %i_1 = 0 to 8 thread_binding<"threadIdx.y"> {
        tir.for %k_0 = 0 to 2 {
          tir.for %k_1 = 0 to 32 thread_binding<"threadIdx.x"> {
            tir.for %ax0 = 0 to 256 {
              tir.block "PV"(%vh = spatial(4, %h_i_0_fused floordiv 32), %vi = spatial(256, %i_1 + %h_i_0_fused mod 32 * 8), %vk = spatial(64, %k_0 * 32 + %k_1), %vj = reduce(256, %ax0)) {
                tir.init {
                  %cst = arith.constant 0.000000e+00 : f32
                  tir.store %cst, %acc[%vh, %vi, %vk] : memref<4x256x64xf32, "local">
                }
                %0 = tir.load %acc[%vh, %vi, %vk] : memref<4x256x64xf32, "local">
                %1 = tir.load %P[%vh, %vi, %vj] : memref<4x256x256xf32, "shared.dyn">
                %2 = tir.load %arg2[%vh, %vj, %vk] : memref<4x256x64xf16>
                %3 = arith.extf %2 : f16 to f32
                %4 = arith.mulf %1, %3 : f32
                %5 = arith.addf %0, %4 : f32
                tir.store %5, %acc[%vh, %vi, %vk] : memref<4x256x64xf32, "local">
              }
            }
            tir.block "O"(%vh = spatial(4, %h_i_0_fused floordiv 32), %vi = spatial(256, %i_1 + %h_i_0_fused mod 32 * 8), %vk = spatial(64, %k_0 * 32 + %k_1)) {
              %0 = tir.load %acc[%vh, %vi, %vk] : memref<4x256x64xf32, "local">
              %1 = tir.load %den[%vh, %vi] : memref<4x256xf32, "shared">
              %2 = arith.divf %0, %1 : f32
              %3 = arith.truncf %2 : f32 to f16
              tir.store %3, %arg3[%vh, %vi, %vk] : memref<4x256x64xf16>
            }
          }
        }
      }
    }
    return
  }
}

