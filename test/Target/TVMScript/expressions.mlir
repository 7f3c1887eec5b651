// RUN: tir-translate --tir-to-tvmscript --split-input-file %s \
// RUN:   | FileCheck %s --strict-whitespace
// Lines that start with {{^}} check Python's indentation exactly.

// A split by a scalable factor (4 * vscale): vector.vscale is T.vscale(),
// index values from affine.apply are their expressions (an affine ceildiv
// is T.ceildiv), inline where used once and named where used again.
// CHECK-LABEL: {{^}}def scalable(A: T.Buffer((4, 8), "float32"), B: T.Buffer((4, 8), "float32")):
// CHECK-NEXT:  {{^}}    for i in range(4):
// CHECK-NEXT:  {{^}}        v = T.vscale()
// CHECK-NEXT:  {{^}}        v_1 = v * 4
// CHECK-NEXT:  {{^}}        for j_0, j_1 in T.grid((T.ceildiv(8, v * 4)), v_1):
// CHECK-NEXT:  {{^}}            with T.block("B"):
// CHECK-NEXT:  {{^}}                vi = T.axis.spatial(4, i)
// CHECK-NEXT:  {{^}}                vj = T.axis.spatial(8, j_1 + j_0 * v_1)
// CHECK-NEXT:  {{^}}                T.where(j_1 * (-1) - j_0 * v_1 + 7 >= 0)
// CHECK-NEXT:  {{^}}                B[vi, vj] = A[vi, vj] * T.float32(2.0)

#ceil = affine_map<()[s0] -> (8 ceildiv (s0 * 4))>
#times4 = affine_map<(d0) -> (d0 * 4)>
func.func @scalable(%A: memref<4x8xf32> {tir.name = "A"}, %B: memref<4x8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 4 {
    %vscale = vector.vscale
    %0 = affine.apply #ceil()[%vscale]
    %1 = affine.apply #times4(%vscale)
    tir.for %j_0 = 0 to %0 {
      tir.for %j_1 = 0 to %1 {
        tir.block "B"(%vi = spatial(4, %i), %vj = spatial(8, %j_1 + %j_0 * %1)) where(%j_0 * %1 + %j_1 < 8) {
          %2 = tir.load %A[%vi, %vj] : memref<4x8xf32>
          %cst = arith.constant 2.000000e+00 : f32
          %3 = arith.mulf %2, %cst : f32
          tir.store %3, %B[%vi, %vj] : memref<4x8xf32>
        }
      }
    }
  }
  return
}

// -----

// floordiv and mod in bindings and indices (what fuse leaves) are Python's
// // and %, a negative coefficient a subtraction; arith.ceildivsi is
// T.ceildiv, arith.floordivsi //, an index cast T.Cast. Index arithmetic
// of the function's sizes is written at each use, as TVMScript writes it.
// CHECK-LABEL: {{^}}def index_arith(n: T.int32, A: T.Buffer((16, 8), "float32"), b: T.handle):
// CHECK-NEXT:  {{^}}    B = T.match_buffer(b, (n,), "int32")
// CHECK-NEXT:  {{^}}    for f in range(128):
// CHECK-NEXT:  {{^}}        with T.block("fused"):
// CHECK-NEXT:  {{^}}            vi = T.axis.spatial(16, f // 8)
// CHECK-NEXT:  {{^}}            vj = T.axis.spatial(8, f % 8)
// CHECK-NEXT:  {{^}}            A[vj * 2 - 1, vi // 2 + vj % 3 - vi * 3] = A[vi, vj]
// CHECK-NEXT:  {{^}}    v = 4
// CHECK-NEXT:  {{^}}    for i in range(T.ceildiv(n, v)):
// CHECK-NEXT:  {{^}}        with T.block("tiles"):
// CHECK-NEXT:  {{^}}            vi = T.axis.spatial(T.ceildiv(n, v), i)
// CHECK-NEXT:  {{^}}            B[vi] = T.Cast("int32", (vi // v))

func.func @index_arith(%n: index {tir.name = "n"}, %A: memref<16x8xf32> {tir.name = "A"}, %B: memref<?xi32> {tir.name = "B"}) {
  tir.for %f = 0 to 128 {
    tir.block "fused"(%vi = spatial(16, %f floordiv 8), %vj = spatial(8, %f mod 8)) {
      %x = tir.load %A[%vi, %vj] : memref<16x8xf32>
      tir.store %x, %A[%vj * 2 - 1, %vi floordiv 2 + %vj mod 3 - %vi * 3] : memref<16x8xf32>
    }
  }
  %c4 = arith.constant 4 : index
  %t = arith.ceildivsi %n, %c4 : index
  tir.for %i = 0 to %t {
    tir.block "tiles"(%vi = spatial(%t, %i)) {
      %q = arith.floordivsi %vi, %c4 : index
      %v = arith.index_cast %q : index to i32
      tir.store %v, %B[%vi] : memref<?xi32>
    }
  }
  return
}

// -----

// Scalar expressions: comparisons, T.Select (arith.select, eager; an scf.if
// prints as T.if_then_else), intrinsics (T.exp,
// T.max, T.min), float constants to 17 digits and infinity as a string,
// integer casts, boolean not/and/or; an opaque call statement is
// T.evaluate of the call, a buffer argument its .data.
// CHECK-LABEL: {{^}}def values(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "int8"), M: T.Buffer((8,), "bool")):
// CHECK-NEXT:  {{^}}    for i in range(8):
// CHECK-NEXT:  {{^}}        with T.block("E"):
// CHECK-NEXT:  {{^}}            vi = T.axis.spatial(8, i)
// CHECK-NEXT:  {{^}}            v = A[vi]
// CHECK-NEXT:  {{^}}            v_1 = v > T.float32(0.0)
// CHECK-NEXT:  {{^}}            A[vi] = T.Select(v_1, T.exp(T.max(v, T.float32(9.9999997473787516e-06))), T.float32("inf")) / v
// CHECK-NEXT:  {{^}}            v_2 = B[vi]
// CHECK-NEXT:  {{^}}            B[vi] = T.Cast("int8", T.Cast("int32", (T.min(v_2, T.int8(3)) - v_2)))
// CHECK-NEXT:  {{^}}            v_3 = M[vi]
// CHECK-NEXT:  {{^}}            M[vi] = ((not v_3) and v_1) or v_3
// CHECK-NEXT:  {{^}}    T.evaluate(T.call_extern("handle", "fence", A.data, 3))
// CHECK-EMPTY:

func.func @values(%A: memref<8xf32> {tir.name = "A"}, %B: memref<8xi8> {tir.name = "B"}, %M: memref<8xi1> {tir.name = "M"}) {
  tir.for %i = 0 to 8 {
    tir.block "E"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      %zero = arith.constant 0.0 : f32
      %inf = arith.constant 0x7F800000 : f32
      %small = arith.constant 1.0e-5 : f32
      %pos = arith.cmpf ogt, %a, %zero : f32
      %m = arith.maximumf %a, %small : f32
      %e = math.exp %m : f32
      %s = arith.select %pos, %e, %inf : f32
      %d = arith.divf %s, %a : f32
      tir.store %d, %A[%vi] : memref<8xf32>
      %b = tir.load %B[%vi] : memref<8xi8>
      %three = arith.constant 3 : i8
      %bm = arith.minsi %b, %three : i8
      %sub = arith.subi %bm, %b : i8
      %ext = arith.extsi %sub : i8 to i32
      %tr = arith.trunci %ext : i32 to i8
      tir.store %tr, %B[%vi] : memref<8xi8>
      %mask = tir.load %M[%vi] : memref<8xi1>
      %true = arith.constant true
      %not = arith.xori %mask, %true : i1
      %both = arith.andi %not, %pos : i1
      %either = arith.ori %both, %mask : i1
      tir.store %either, %M[%vi] : memref<8xi1>
    }
  }
  tir.call "call_extern"("fence", %A, 3 : i32) : (memref<8xf32>) -> ()
  return
}

// -----

// The math functions TVMScript writes as T.<name> calls, and C's
// truncating division and remainder as T.truncdiv / T.truncmod.
// CHECK-LABEL: {{^}}def math(A: T.Buffer((8,), "float32"), C: T.Buffer((8,), "int32")):
// CHECK:       {{^}}            A[vi] = T.rsqrt(T.erf(T.log2(T.exp2(T.cos(T.sin(T.abs(T.round(T.ceil(T.floor(A[vi]))))))))))
// CHECK-NEXT:  {{^}}            v = C[vi]
// CHECK-NEXT:  {{^}}            v_1 = T.int32(3)
// CHECK-NEXT:  {{^}}            C[vi] = T.truncdiv(v, v_1) + T.truncmod(C[vi], v_1)
func.func @math(%A: memref<8xf32> {tir.name = "A"}, %C: memref<8xi32> {tir.name = "C"}) {
  tir.for %i = 0 to 8 {
    tir.block "M"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      %0 = math.floor %a : f32
      %1 = math.ceil %0 : f32
      %2 = math.roundeven %1 : f32
      %3 = math.absf %2 : f32
      %4 = math.sin %3 : f32
      %5 = math.cos %4 : f32
      %6 = math.exp2 %5 : f32
      %7 = math.log2 %6 : f32
      %8 = math.erf %7 : f32
      %9 = math.rsqrt %8 : f32
      tir.store %9, %A[%vi] : memref<8xf32>
      %c = tir.load %C[%vi] : memref<8xi32>
      %three = arith.constant 3 : i32
      %q = arith.divsi %c, %three : i32
      %c2 = tir.load %C[%vi] : memref<8xi32>
      %r = arith.remsi %c2, %three : i32
      %s = arith.addi %q, %r : i32
      tir.store %s, %C[%vi] : memref<8xi32>
    }
  }
  return
}
