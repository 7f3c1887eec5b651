// C = A x B, 1024x1024x1024 fp32, as written (no schedule): the baseline
// the tiled version is measured against.
func.func @matmul(%A: memref<1024x1024xf32> {tir.name = "A"},
                  %B: memref<1024x1024xf32> {tir.name = "B"},
                  %C: memref<1024x1024xf32> {tir.name = "C"}) {
  tir.for %i = 0 to 1024 {
    tir.for %j = 0 to 1024 {
      tir.for %k = 0 to 1024 {
        tir.block "C"(%vi = spatial(1024, %i), %vj = spatial(1024, %j),
                      %vk = reduce(1024, %k)) {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %C[%vi, %vj] : memref<1024x1024xf32>
          }
          %c = tir.load %C[%vi, %vj] : memref<1024x1024xf32>
          %a = tir.load %A[%vi, %vk] : memref<1024x1024xf32>
          %b = tir.load %B[%vk, %vj] : memref<1024x1024xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          tir.store %s, %C[%vi, %vj] : memref<1024x1024xf32>
        }
      }
    }
  }
  return
}
