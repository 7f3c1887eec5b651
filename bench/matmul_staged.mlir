// C = A x B, 1024x1024x1024 fp32, written in stages the way a TVM user
// writes them in TE or TVMScript before scheduling (cache_read /
// cache_write would add the last two; they are written out here):
//
//   Bp[jo, k, ji] = B[k, jo * 32 + ji]      pack: B as 32 panels of 32
//                                           columns, each 1024 x 32 and
//                                           contiguous (TVM's "packedB")
//   Cl[i, j] += A[i, k] * Bp[j floordiv 32, k, j mod 32]
//                                           the reduction, into a local
//                                           buffer (init: Cl[i, j] = 0)
//   C[i, j] = Cl[i, j]                      write back
//
// As written every stage runs over the whole matrix, one after the other;
// bench/matmul_block_schedule.mlir interleaves them with the block
// primitives (compute_at, reverse_compute_at, decompose_reduction).
func.func @matmul(%A: memref<1024x1024xf32> {tir.name = "A"},
                  %B: memref<1024x1024xf32> {tir.name = "B"},
                  %C: memref<1024x1024xf32> {tir.name = "C"}) {
  %Bp = tir.alloc_buffer : memref<32x1024x32xf32>
  %Cl = tir.alloc_buffer : memref<1024x1024xf32, "local">
  tir.for %jo = 0 to 32 {
    tir.for %k = 0 to 1024 {
      tir.for %ji = 0 to 32 {
        tir.block "pack"(%vjo = spatial(32, %jo), %vk = spatial(1024, %k),
                         %vji = spatial(32, %ji)) {
          %b = tir.load %B[%vk, %vjo * 32 + %vji] : memref<1024x1024xf32>
          tir.store %b, %Bp[%vjo, %vk, %vji] : memref<32x1024x32xf32>
        }
      }
    }
  }
  tir.for %i = 0 to 1024 {
    tir.for %j = 0 to 1024 {
      tir.for %k = 0 to 1024 {
        tir.block "C"(%vi = spatial(1024, %i), %vj = spatial(1024, %j),
                      %vk = reduce(1024, %k)) {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %Cl[%vi, %vj] : memref<1024x1024xf32, "local">
          }
          %c = tir.load %Cl[%vi, %vj] : memref<1024x1024xf32, "local">
          %a = tir.load %A[%vi, %vk] : memref<1024x1024xf32>
          %b = tir.load %Bp[%vj floordiv 32, %vk, %vj mod 32] : memref<32x1024x32xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          tir.store %s, %Cl[%vi, %vj] : memref<1024x1024xf32, "local">
        }
      }
    }
  }
  tir.for %i = 0 to 1024 {
    tir.for %j = 0 to 1024 {
      tir.block "write_back"(%vi = spatial(1024, %i), %vj = spatial(1024, %j)) {
        %c = tir.load %Cl[%vi, %vj] : memref<1024x1024xf32, "local">
        tir.store %c, %C[%vi, %vj] : memref<1024x1024xf32>
      }
    }
  }
  return
}
