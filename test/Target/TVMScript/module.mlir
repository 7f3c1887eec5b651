// RUN: tir-translate --tir-to-tvmscript %s | FileCheck %s --strict-whitespace

// Several functions make an @I.ir_module class, every function one level
// in, in the module's order. Lines that start with {{^}} check Python's
// indentation exactly.
// CHECK:       {{^}}# from tensorir.script import tir as T
// CHECK-NEXT:  {{^}}# from tensorir.script import ir as I
// CHECK-EMPTY:
// CHECK-NEXT:  {{^}}@I.ir_module
// CHECK-NEXT:  {{^}}class Module:
// CHECK-EMPTY:
// CHECK-NEXT:  {{^}}    @T.prim_func
// CHECK-NEXT:  {{^}}    def add_one(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
// CHECK-NEXT:  {{^}}        for i in range(8):
// CHECK-NEXT:  {{^}}            with T.block("B"):
// CHECK-NEXT:  {{^}}                vi = T.axis.spatial(8, i)
// CHECK-NEXT:  {{^}}                B[vi] = A[vi] + T.float32(1.0)
// CHECK-EMPTY:
// CHECK-NEXT:  {{^}}    @T.prim_func
// CHECK-NEXT:  {{^}}    def fill(C: T.Buffer((4, 4), "int32")):
// CHECK-NEXT:  {{^}}        for i, j in T.grid(4, 4):
// CHECK-NEXT:  {{^}}            with T.block("C"):
// CHECK-NEXT:  {{^}}                vi = T.axis.spatial(4, i)
// CHECK-NEXT:  {{^}}                vj = T.axis.spatial(4, j)
// CHECK-NEXT:  {{^}}                C[vi, vj] = T.int32(7)
// CHECK-NOT:   {{.}}
func.func @add_one(%A: memref<8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
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

func.func @fill(%C: memref<4x4xi32> {tir.name = "C"}) {
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 4 {
      tir.block "C"(%vi = spatial(4, %i), %vj = spatial(4, %j)) {
        %seven = arith.constant 7 : i32
        tir.store %seven, %C[%vi, %vj] : memref<4x4xi32>
      }
    }
  }
  return
}
