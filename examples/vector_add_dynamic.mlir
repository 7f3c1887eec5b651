// B[i] = A[i] + 1 for a length n given at run time: a scalar parameter
// bounds the loop and the iteration domain (TVM's `n: T.int32`), and sizes
// both buffers (tir.dim_vars: the runtime checks len(A) == len(B) == n).
func.func @add_one(%n: index {tir.name = "n"},
                   %A: memref<?xf32> {tir.dim_vars = ["n"], tir.name = "A"},
                   %B: memref<?xf32> {tir.dim_vars = ["n"], tir.name = "B"}) {
  tir.for %i = 0 to %n {
    tir.block "B"(%vi = spatial(%n, %i)) {
      %a = tir.load %A[%vi] : memref<?xf32>
      %one = arith.constant 1.0 : f32
      %b = arith.addf %a, %one : f32
      tir.store %b, %B[%vi] : memref<?xf32>
    }
  }
  return
}
