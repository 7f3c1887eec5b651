// RUN: tir-opt %s | FileCheck %s
// RUN: tir-opt %s | tir-opt | FileCheck %s
// RUN: tir-translate --tir-to-tvmscript %s | FileCheck %s --check-prefix=SCRIPT

// tir.dim_vars names the variable that sizes each dynamic dimension of a
// buffer parameter ("" for none, static dimensions included): a scalar
// parameter's tir.name or a shape variable shared by buffers. It survives
// printing and parsing, and the TVMScript printer declares the shape
// variables and names the dimensions by it.

// CHECK-LABEL: func.func @shape_var
// CHECK-SAME: tir.dim_vars = ["n", ""]
// CHECK-SAME: tir.dim_vars = ["n"]
// SCRIPT-LABEL: def shape_var(a: T.handle, b: T.handle):
// SCRIPT-NEXT:    n = T.int32()
// SCRIPT-NEXT:    A = T.match_buffer(a, (n, 4), "float32")
// SCRIPT-NEXT:    B = T.match_buffer(b, (n,), "float32")
// SCRIPT-NEXT:    for i in range(n):
// SCRIPT:           B[vi] = A[vi, 0]
func.func @shape_var(%A: memref<?x4xf32> {tir.name = "A", tir.dim_vars = ["n", ""]},
                     %B: memref<?xf32> {tir.name = "B", tir.dim_vars = ["n"]}) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %A, %c0 : memref<?x4xf32>
  tir.for %i = 0 to %n {
    tir.block "B"(%vi = spatial(%n, %i)) {
      %a = tir.load %A[%vi, 0] : memref<?x4xf32>
      tir.store %a, %B[%vi] : memref<?xf32>
    }
  }
  return
}

// CHECK-LABEL: func.func @scalars
// CHECK-SAME: tir.dim_vars = ["m", "n"]
// SCRIPT-LABEL: def scalars(m: T.int32, n: T.int32, a: T.handle):
// SCRIPT-NEXT:    A = T.match_buffer(a, (m, n), "float32")
func.func @scalars(%m: index {tir.name = "m"}, %n: index {tir.name = "n"},
                   %A: memref<?x?xf32> {tir.name = "A", tir.dim_vars = ["m", "n"]}) {
  tir.for %i = 0 to %m {
    tir.for %j = 0 to %n {
      tir.block "A"(%vi = spatial(%m, %i), %vj = spatial(%n, %j)) {
        %z = arith.constant 0.0 : f32
        tir.store %z, %A[%vi, %vj] : memref<?x?xf32>
      }
    }
  }
  return
}
