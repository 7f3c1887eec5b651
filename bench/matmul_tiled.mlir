// C = A x B, 1024x1024x1024 fp32, tiled by hand the way split / reorder /
// cache_write / parallel / unroll / vectorize would schedule it:
//
//   for i0 in 0..128 parallel, j0 in 0..32:        an 8x32 tile of C
//     acc[8, 32] (local)                            its accumulator
//     for k in 0..1024, i1 in 0..8 unrolled, j1 in 0..2 unrolled,
//         j2 in 0..16 vectorized:                   acc += A[i, k] * B[k, j]
//     C[tile] = acc
//
// The accumulator is a local buffer per tile, so it lives on the stack of
// the thread that owns the tile and its 16 vectors stay in registers.
func.func @matmul(%A: memref<1024x1024xf32> {tir.name = "A"},
                  %B: memref<1024x1024xf32> {tir.name = "B"},
                  %C: memref<1024x1024xf32> {tir.name = "C"}) {
  tir.for %i0 = 0 to 128 parallel {
    tir.for %j0 = 0 to 32 {
      tir.block "tile"(%ti = spatial(128, %i0), %tj = spatial(32, %j0)) {
        %acc = tir.alloc_buffer : memref<8x32xf32, "local">
        tir.for %i1 = 0 to 8 unrolled {
          tir.for %j1 = 0 to 2 unrolled {
            tir.for %j2 = 0 to 16 vectorized {
              tir.block "acc_init"(%vi = spatial(8, %i1),
                                   %vj = spatial(32, %j1 * 16 + %j2)) {
                %zero = arith.constant 0.0 : f32
                tir.store %zero, %acc[%vi, %vj] : memref<8x32xf32, "local">
              }
            }
          }
        }
        tir.for %k = 0 to 1024 {
          tir.for %i1 = 0 to 8 unrolled {
            tir.for %j1 = 0 to 2 unrolled {
              tir.for %j2 = 0 to 16 vectorized {
                tir.block "update"(%vio = spatial(128, %ti),
                                   %vjo = spatial(32, %tj),
                                   %vi = spatial(8, %i1),
                                   %vj = spatial(32, %j1 * 16 + %j2),
                                   %vk = reduce(1024, %k)) {
                  %c = tir.load %acc[%vi, %vj] : memref<8x32xf32, "local">
                  %a = tir.load %A[%vio * 8 + %vi, %vk] : memref<1024x1024xf32>
                  %b = tir.load %B[%vk, %vjo * 32 + %vj] : memref<1024x1024xf32>
                  %p = arith.mulf %a, %b : f32
                  %s = arith.addf %c, %p : f32
                  tir.store %s, %acc[%vi, %vj] : memref<8x32xf32, "local">
                }
              }
            }
          }
        }
        tir.for %i1 = 0 to 8 unrolled {
          tir.for %j1 = 0 to 2 unrolled {
            tir.for %j2 = 0 to 16 vectorized {
              tir.block "write_back"(%vio = spatial(128, %ti),
                                     %vjo = spatial(32, %tj),
                                     %vi = spatial(8, %i1),
                                     %vj = spatial(32, %j1 * 16 + %j2)) {
                %v = tir.load %acc[%vi, %vj] : memref<8x32xf32, "local">
                tir.store %v, %C[%vio * 8 + %vi, %vjo * 32 + %vj] : memref<1024x1024xf32>
              }
            }
          }
        }
      }
    }
  }
  return
}
