// B = concat(A0, A1, A2): three blocks write disjoint parts of one output,
// with no if/else in sight (the TensorIR RFC's example).
func.func @concat(%A0: memref<10xf32> {tir.name = "A0"},
                  %A1: memref<10xf32> {tir.name = "A1"},
                  %A2: memref<10xf32> {tir.name = "A2"},
                  %B: memref<30xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 10 {
    tir.block "B0"(%vi = spatial(10, %i)) {
      %a = tir.load %A0[%vi] : memref<10xf32>
      tir.store %a, %B[%vi] : memref<30xf32>
    }
  }
  tir.for %i = 0 to 10 {
    tir.block "B1"(%vi = spatial(10, %i)) {
      %a = tir.load %A1[%vi] : memref<10xf32>
      tir.store %a, %B[%vi + 10] : memref<30xf32>
    }
  }
  tir.for %i = 0 to 10 {
    tir.block "B2"(%vi = spatial(10, %i)) {
      %a = tir.load %A2[%vi] : memref<10xf32>
      tir.store %a, %B[%vi + 20] : memref<30xf32>
    }
  }
  return
}
