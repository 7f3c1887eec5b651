// B[i] = A[i] + 1 over 8 floats: the Blitz course's first TensorIR program.
func.func @main(%A: memref<8xf32> {tir.name = "A"},
                %B: memref<8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      %one = arith.constant 1.0 : f32
      %b = arith.addf %a, %one : f32
      tir.store %b, %B[%vi] : memref<8xf32>
    }
  }
  return
}
