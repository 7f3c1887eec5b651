"""What the tuning tests share: a matmul design space as a schedule
function (two sampled tile sizes, the inner columns vectorized) and an
.mlir file of two tir functions (a scale and a 32x32 matmul) for tir-tune."""
from tensorir import meta_schedule as ms


def tile_matmul(sch):
    block = sch.get_block("C")
    i, j, k = sch.get_loops(block)
    i0, i1 = sch.split(i, sch.sample_perfect_tile(i, n=2))
    j0, j1 = sch.split(j, sch.sample_perfect_tile(j, n=2, max_innermost_factor=16))
    sch.reorder(i0, j0, k, i1, j1)
    sch.vectorize(j1)


def matmul_space():
    return ms.space_generator.ScheduleFn(tile_matmul, sch_rules=[], postprocs=[],
                                         mutator_probs={})


KERNELS = """
func.func @scale(%A: memref<64xf32>, %B: memref<64xf32>) {
  tir.for %i = 0 to 64 {
    tir.block "B"(%vi = spatial(64, %i)) {
      %a = tir.load %A[%vi] : memref<64xf32>
      %two = arith.constant 2.0 : f32
      %b = arith.mulf %a, %two : f32
      tir.store %b, %B[%vi] : memref<64xf32>
    }
  }
  return
}
func.func @mm(%A: memref<32x32xf32>, %B: memref<32x32xf32>, %C: memref<32x32xf32>) {
  tir.for %i = 0 to 32 {
    tir.for %j = 0 to 32 {
      tir.for %k = 0 to 32 {
        tir.block "C"(%vi = spatial(32, %i), %vj = spatial(32, %j), %vk = reduce(32, %k)) {
          tir.init {
            %z = arith.constant 0.0 : f32
            tir.store %z, %C[%vi, %vj] : memref<32x32xf32>
          }
          %a = tir.load %A[%vi, %vk] : memref<32x32xf32>
          %b = tir.load %B[%vk, %vj] : memref<32x32xf32>
          %c = tir.load %C[%vi, %vj] : memref<32x32xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %c, %m : f32
          tir.store %s, %C[%vi, %vj] : memref<32x32xf32>
        }
      }
    }
  }
  return
}
"""
