// Attention streamed over the keys with FlashAttention's online softmax,
// O = softmax(Q K^T / sqrt(64)) V over 4 heads of 256 queries, keys and
// values (f16 in and out, float32 inside), as bench/gpu/attention_kernels.py's
// flash_attention writes it: one kernel, a block of 8 warps per 8 queries
// of a head, a warp per query. For each tile of 32 keys (the serial loop
// %t): the tile's keys and values staged in shared memory by the block's
// threads (the keys' rows padded a bank apart: buffer_dim_align), each
// lane's score of one key, the tile's maximum and the sum of its
// exponentials reduced by the warp (cross-thread reductions in groups of
// 32 lanes: warp shuffles), the output features rescaled by exp(old
// maximum - new maximum) and the tile's weighted values added, and the
// row's running maximum and sum updated by lane 0. Each step between
// barriers is a thread loop nest of its own; convert-tir-to-gpu places the
// buffers per block (tiles and per-row state: a few KiB whatever the
// sequence) and puts barriers between the steps.
module {
  func.func @main(%arg0: memref<4x256x64xf16> {tir.name = "Q"}, %arg1: memref<4x256x64xf16> {tir.name = "K"}, %arg2: memref<4x256x64xf16> {tir.name = "V"}, %arg3: memref<4x256x64xf16> {tir.name = "O"}) {
    %q = tir.alloc_buffer : memref<4x256x64xf32, "shared">
    %K_tile = tir.alloc_buffer : memref<4x256x64xf16, "shared">
    %V_tile = tir.alloc_buffer : memref<4x256x64xf16, "shared">
    %S = tir.alloc_buffer : memref<4x256x256xf32, "shared">
    %P = tir.alloc_buffer : memref<4x256x256xf32, "shared">
    %acc = tir.alloc_buffer : memref<4x256x64xf32, "shared">
    %m = tir.alloc_buffer : memref<4x256xf32, "shared">
    %l = tir.alloc_buffer : memref<4x256xf32, "shared">
    %mt = tir.alloc_buffer : memref<4x256xf32, "shared">
    %lt = tir.alloc_buffer : memref<4x256xf32, "shared">
    tir.for %bx = 0 to 128 thread_binding<"blockIdx.x"> {
      tir.for %ty = 0 to 8 thread_binding<"threadIdx.y"> {
        tir.for %tx = 0 to 32 thread_binding<"threadIdx.x"> {
          tir.for %c = 0 to 2 {
            tir.block "q"(%vh = spatial(4, %bx floordiv 32), %vi = spatial(256, %bx mod 32 * 8 + %ty), %vk = spatial(64, %c * 32 + %tx)) {
              %0 = tir.load %arg0[%vh, %vi, %vk] : memref<4x256x64xf16>
              %1 = arith.extf %0 : f16 to f32
              %cst = arith.constant 1.250000e-01 : f32
              %2 = arith.mulf %1, %cst : f32
              tir.store %2, %q[%vh, %vi, %vk] : memref<4x256x64xf32, "shared">
              %cst_0 = arith.constant 0.000000e+00 : f32
              tir.store %cst_0, %acc[%vh, %vi, %vk] : memref<4x256x64xf32, "shared">
            }
          }
          tir.block "state"(%vh = spatial(4, %bx floordiv 32), %vi = spatial(256, %bx mod 32 * 8 + %ty)) where(%tx == 0) {
            %cst = arith.constant -3.40282347E+38 : f32
            tir.store %cst, %m[%vh, %vi] : memref<4x256xf32, "shared">
            %cst_0 = arith.constant 0.000000e+00 : f32
            tir.store %cst_0, %l[%vh, %vi] : memref<4x256xf32, "shared">
          }
        }
      }
      tir.for %t = 0 to 8 {
        tir.for %ty = 0 to 8 thread_binding<"threadIdx.y"> {
          tir.for %tx = 0 to 32 thread_binding<"threadIdx.x"> {
            tir.for %r = 0 to 4 {
              tir.for %c = 0 to 2 {
                tir.block "KV"(%vh = spatial(4, %bx floordiv 32), %vj = spatial(256, %t * 32 + %r * 8 + %ty), %vk = spatial(64, %c * 32 + %tx)) annotations {buffer_dim_align = [[0, 1, 64, 2]]} {
                  %0 = tir.load %arg1[%vh, %vj, %vk] : memref<4x256x64xf16>
                  tir.store %0, %K_tile[%vh, %vj, %vk] : memref<4x256x64xf16, "shared">
                  %1 = tir.load %arg2[%vh, %vj, %vk] : memref<4x256x64xf16>
                  tir.store %1, %V_tile[%vh, %vj, %vk] : memref<4x256x64xf16, "shared">
                }
              }
            }
          }
        }
        tir.for %ty = 0 to 8 thread_binding<"threadIdx.y"> {
          tir.for %tx = 0 to 32 thread_binding<"threadIdx.x"> {
            tir.for %k = 0 to 64 {
              tir.block "S"(%vh = spatial(4, %bx floordiv 32), %vi = spatial(256, %bx mod 32 * 8 + %ty), %vj = spatial(256, %t * 32 + %tx), %vk = reduce(64, %k)) {
                tir.init {
                  %cst = arith.constant 0.000000e+00 : f32
                  tir.store %cst, %S[%vh, %vi, %vj] : memref<4x256x256xf32, "shared">
                }
                %0 = tir.load %S[%vh, %vi, %vj] : memref<4x256x256xf32, "shared">
                %1 = tir.load %q[%vh, %vi, %vk] : memref<4x256x64xf32, "shared">
                %2 = tir.load %K_tile[%vh, %vj, %vk] : memref<4x256x64xf16, "shared">
                %3 = arith.extf %2 : f16 to f32
                %4 = arith.mulf %1, %3 : f32
                %5 = arith.addf %0, %4 : f32
                tir.store %5, %S[%vh, %vi, %vj] : memref<4x256x256xf32, "shared">
              }
            }
          }
        }
        tir.for %ty = 0 to 8 thread_binding<"threadIdx.y"> {
          tir.for %tx = 0 to 32 thread_binding<"threadIdx.x"> {
            tir.block "tile_max"(%vh = spatial(4, %bx floordiv 32), %vi = spatial(256, %bx mod 32 * 8 + %ty), %vt = opaque(8, %t), %vj = reduce(32, %tx)) {
              tir.init {
                %cst = arith.constant -3.40282347E+38 : f32
                tir.store %cst, %mt[%vh, %vi] : memref<4x256xf32, "shared">
              }
              %0 = tir.load %mt[%vh, %vi] : memref<4x256xf32, "shared">
              %1 = tir.load %S[%vh, %vi, %vt * 32 + %vj] : memref<4x256x256xf32, "shared">
              %2 = arith.maximumf %0, %1 : f32
              tir.store %2, %mt[%vh, %vi] : memref<4x256xf32, "shared">
            }
          }
        }
        tir.for %ty = 0 to 8 thread_binding<"threadIdx.y"> {
          tir.for %tx = 0 to 32 thread_binding<"threadIdx.x"> {
            tir.block "P"(%vh = spatial(4, %bx floordiv 32), %vi = spatial(256, %bx mod 32 * 8 + %ty), %vj = spatial(256, %t * 32 + %tx)) {
              %0 = tir.load %m[%vh, %vi] : memref<4x256xf32, "shared">
              %1 = tir.load %mt[%vh, %vi] : memref<4x256xf32, "shared">
              %2 = arith.maximumf %0, %1 : f32
              %3 = tir.load %S[%vh, %vi, %vj] : memref<4x256x256xf32, "shared">
              %4 = arith.subf %3, %2 : f32
              %5 = math.exp %4 : f32
              tir.store %5, %P[%vh, %vi, %vj] : memref<4x256x256xf32, "shared">
            }
          }
        }
        tir.for %ty = 0 to 8 thread_binding<"threadIdx.y"> {
          tir.for %tx = 0 to 32 thread_binding<"threadIdx.x"> {
            tir.block "tile_sum"(%vh = spatial(4, %bx floordiv 32), %vi = spatial(256, %bx mod 32 * 8 + %ty), %vt = opaque(8, %t), %vj = reduce(32, %tx)) {
              tir.init {
                %cst = arith.constant 0.000000e+00 : f32
                tir.store %cst, %lt[%vh, %vi] : memref<4x256xf32, "shared">
              }
              %0 = tir.load %lt[%vh, %vi] : memref<4x256xf32, "shared">
              %1 = tir.load %P[%vh, %vi, %vt * 32 + %vj] : memref<4x256x256xf32, "shared">
              %2 = arith.addf %0, %1 : f32
              tir.store %2, %lt[%vh, %vi] : memref<4x256xf32, "shared">
            }
          }
        }
        tir.for %ty = 0 to 8 thread_binding<"threadIdx.y"> {
          tir.for %tx = 0 to 32 thread_binding<"threadIdx.x"> {
            tir.for %c = 0 to 2 {
              tir.block "rescale"(%vh = spatial(4, %bx floordiv 32), %vi = spatial(256, %bx mod 32 * 8 + %ty), %vk = spatial(64, %c * 32 + %tx)) {
                %0 = tir.load %m[%vh, %vi] : memref<4x256xf32, "shared">
                %1 = tir.load %mt[%vh, %vi] : memref<4x256xf32, "shared">
                %2 = arith.maximumf %0, %1 : f32
                %3 = tir.load %acc[%vh, %vi, %vk] : memref<4x256x64xf32, "shared">
                %4 = tir.load %m[%vh, %vi] : memref<4x256xf32, "shared">
                %5 = arith.subf %4, %2 : f32
                %6 = math.exp %5 : f32
                %7 = arith.mulf %3, %6 : f32
                tir.store %7, %acc[%vh, %vi, %vk] : memref<4x256x64xf32, "shared">
              }
              tir.for %j = 0 to 32 {
                tir.block "PV"(%vh = spatial(4, %bx floordiv 32), %vi = spatial(256, %bx mod 32 * 8 + %ty), %vk = spatial(64, %c * 32 + %tx), %vj = opaque(256, %t * 32 + %j)) {
                  %0 = tir.load %acc[%vh, %vi, %vk] : memref<4x256x64xf32, "shared">
                  %1 = tir.load %P[%vh, %vi, %vj] : memref<4x256x256xf32, "shared">
                  %2 = tir.load %V_tile[%vh, %vj, %vk] : memref<4x256x64xf16, "shared">
                  %3 = arith.extf %2 : f16 to f32
                  %4 = arith.mulf %1, %3 : f32
                  %5 = arith.addf %0, %4 : f32
                  tir.store %5, %acc[%vh, %vi, %vk] : memref<4x256x64xf32, "shared">
                }
              }
            }
          }
        }
        tir.for %ty = 0 to 8 thread_binding<"threadIdx.y"> {
          tir.for %tx = 0 to 32 thread_binding<"threadIdx.x"> {
            tir.block "update"(%vh = spatial(4, %bx floordiv 32), %vi = spatial(256, %bx mod 32 * 8 + %ty)) where(%tx == 0) {
              %0 = tir.load %m[%vh, %vi] : memref<4x256xf32, "shared">
              %1 = tir.load %mt[%vh, %vi] : memref<4x256xf32, "shared">
              %2 = arith.maximumf %0, %1 : f32
              %3 = tir.load %l[%vh, %vi] : memref<4x256xf32, "shared">
              %4 = tir.load %m[%vh, %vi] : memref<4x256xf32, "shared">
              %5 = arith.subf %4, %2 : f32
              %6 = math.exp %5 : f32
              %7 = arith.mulf %3, %6 : f32
              %8 = tir.load %lt[%vh, %vi] : memref<4x256xf32, "shared">
              %9 = arith.addf %7, %8 : f32
              tir.store %9, %l[%vh, %vi] : memref<4x256xf32, "shared">
              tir.store %2, %m[%vh, %vi] : memref<4x256xf32, "shared">
            }
          }
        }
      }
      tir.for %ty = 0 to 8 thread_binding<"threadIdx.y"> {
        tir.for %tx = 0 to 32 thread_binding<"threadIdx.x"> {
          tir.for %c = 0 to 2 {
            tir.block "O"(%vh = spatial(4, %bx floordiv 32), %vi = spatial(256, %bx mod 32 * 8 + %ty), %vk = spatial(64, %c * 32 + %tx)) {
              %0 = tir.load %acc[%vh, %vi, %vk] : memref<4x256x64xf32, "shared">
              %1 = tir.load %l[%vh, %vi] : memref<4x256xf32, "shared">
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

