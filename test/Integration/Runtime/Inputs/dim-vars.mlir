// Dimensions named by tir.dim_vars (TVMScript's shape variables and scalar
// parameters): every dimension of one name has the same size at a call.

// B[i] = A[i] for i in [0, n), n = T.int32() the size of A and of B.
func.func @shape_var(%A: memref<?xf32> {tir.name = "A", tir.dim_vars = ["n"]},
                     %B: memref<?xf32> {tir.name = "B", tir.dim_vars = ["n"]}) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %A, %c0 : memref<?xf32>
  tir.for %i = 0 to %n {
    tir.block "B"(%vi = spatial(%n, %i)) {
      %a = tir.load %A[%vi] : memref<?xf32>
      tir.store %a, %B[%vi] : memref<?xf32>
    }
  }
  return
}

// The same with n: T.int32 a parameter that sizes A and B.
func.func @scalar(%n: index {tir.name = "n"},
                  %A: memref<?xf32> {tir.name = "A", tir.dim_vars = ["n"]},
                  %B: memref<?xf32> {tir.name = "B", tir.dim_vars = ["n"]}) {
  tir.for %i = 0 to %n {
    tir.block "B"(%vi = spatial(%n, %i)) {
      %a = tir.load %A[%vi] : memref<?xf32>
      tir.store %a, %B[%vi] : memref<?xf32>
    }
  }
  return
}

// Two variables: C[i, j] = A[i] for an m x n C, A of m.
func.func @two(%A: memref<?xf32> {tir.name = "A", tir.dim_vars = ["m"]},
               %C: memref<?x?xf32> {tir.name = "C", tir.dim_vars = ["m", "n"]}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %A, %c0 : memref<?xf32>
  %n = memref.dim %C, %c1 : memref<?x?xf32>
  tir.for %i = 0 to %m {
    tir.for %j = 0 to %n {
      tir.block "C"(%vi = spatial(%m, %i), %vj = spatial(%n, %j)) {
        %a = tir.load %A[%vi] : memref<?xf32>
        tir.store %a, %C[%vi, %vj] : memref<?x?xf32>
      }
    }
  }
  return
}
