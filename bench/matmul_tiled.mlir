// C = A x B, 1024x1024x1024 fp32, scheduled by hand the way split / reorder
// / cache_read / cache_write / parallel / unroll / vectorize would do it
// (GotoBLAS-style, one level):
//
//   for j0 in 0..32:                               a 32-column panel of C
//     Bp[1024, 32] = B[:, panel]                   packed: rows 128 B apart
//     for i0 in 0..128 parallel:                   an 8x32 tile of C
//       acc[8, 32] (local)                          its accumulator
//       for k in 0..1024, i1 in 0..8 unrolled, j1 in 0..2 unrolled,
//           j2 in 0..16 vectorized:                 acc += A[i, k] * Bp[k, j]
//       C[tile] = acc
//
// The accumulator is a local buffer per tile, on the stack of the thread
// that owns the tile; its 16 vectors stay in registers. Packing B avoids
// the 4 KiB row stride of B, whose rows would all fall in one L1 set.
func.func @matmul(%A: memref<1024x1024xf32> {tir.name = "A"},
                  %B: memref<1024x1024xf32> {tir.name = "B"},
                  %C: memref<1024x1024xf32> {tir.name = "C"}) {
  tir.for %j0 = 0 to 32 {
    tir.block "panel"(%tj = spatial(32, %j0)) {
      %Bp = tir.alloc_buffer : memref<1024x32xf32>
      tir.for %k = 0 to 1024 {
        tir.for %j1 = 0 to 2 unrolled {
          tir.for %j2 = 0 to 16 vectorized {
            tir.block "pack"(%vjo = spatial(32, %tj), %vk = spatial(1024, %k),
                             %vj = spatial(32, %j1 * 16 + %j2)) {
              %b = tir.load %B[%vk, %vjo * 32 + %vj] : memref<1024x1024xf32>
              tir.store %b, %Bp[%vk, %vj] : memref<1024x32xf32>
            }
          }
        }
      }
      tir.for %i0 = 0 to 128 parallel {
        tir.block "tile"(%ti = spatial(128, %i0), %tjj = spatial(32, %tj)) {
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
                                     %vi = spatial(8, %i1),
                                     %vj = spatial(32, %j1 * 16 + %j2),
                                     %vk = reduce(1024, %k)) {
                    %c = tir.load %acc[%vi, %vj] : memref<8x32xf32, "local">
                    %a = tir.load %A[%vio * 8 + %vi, %vk] : memref<1024x1024xf32>
                    %b = tir.load %Bp[%vk, %vj] : memref<1024x32xf32>
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
                                       %vjo = spatial(32, %tjj),
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
  }
  return
}
