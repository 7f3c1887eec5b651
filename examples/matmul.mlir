// C = A x B for 128x128 fp32 matrices: one reduction block with an init,
// the first program of TVM's TensorIR tutorials.
func.func @matmul(%A: memref<128x128xf32> {tir.name = "A"},
                  %B: memref<128x128xf32> {tir.name = "B"},
                  %C: memref<128x128xf32> {tir.name = "C"}) {
  tir.for %i = 0 to 128 {
    tir.for %j = 0 to 128 {
      tir.for %k = 0 to 128 {
        tir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j),
                      %vk = reduce(128, %k)) {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %C[%vi, %vj] : memref<128x128xf32>
          }
          %c = tir.load %C[%vi, %vj] : memref<128x128xf32>
          %a = tir.load %A[%vi, %vk] : memref<128x128xf32>
          %b = tir.load %B[%vk, %vj] : memref<128x128xf32>
          %prod = arith.mulf %a, %b : f32
          %sum = arith.addf %c, %prod : f32
          tir.store %sum, %C[%vi, %vj] : memref<128x128xf32>
        }
      }
    }
  }
  return
}
