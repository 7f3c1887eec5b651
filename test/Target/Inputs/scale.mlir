// B = A * 3 over 64 elements, vectorized (see vector-asm.test).
func.func @scale(%A: memref<64xf32> {tir.name = "A"},
                 %B: memref<64xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 64 vectorized {
    tir.block "B"(%vi = spatial(64, %i)) {
      %a = tir.load %A[%vi] : memref<64xf32>
      %three = arith.constant 3.0 : f32
      %b = arith.mulf %a, %three : f32
      tir.store %b, %B[%vi] : memref<64xf32>
    }
  }
  return
}
