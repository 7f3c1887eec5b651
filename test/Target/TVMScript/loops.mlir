// RUN: tir-translate --tir-to-tvmscript --split-input-file %s \
// RUN:   | FileCheck %s --strict-whitespace
// Indentation is Python's block structure: lines that start with {{^}}
// check it exactly.

// A perfect nest of plain serial loops from 0 is one T.grid; loop and
// iteration variables keep their names.
// CHECK-LABEL: {{^}}# from tensorir.script import tir as T
// CHECK-EMPTY:
// CHECK-NEXT:  {{^}}@T.prim_func
// CHECK-NEXT:  {{^}}def grid(A: T.Buffer((16, 8), "float32")):
// CHECK-NEXT:  {{^}}    for i, j in T.grid(16, 8):
// CHECK-NEXT:  {{^}}        with T.block("B"):
// CHECK-NEXT:  {{^}}            vi = T.axis.spatial(16, i)
// CHECK-NEXT:  {{^}}            vj = T.axis.spatial(8, j)
// CHECK-NEXT:  {{^}}            A[vi, vj] = T.float32(0.0)
func.func @grid(%A: memref<16x8xf32> {tir.name = "A"}) {
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(16, %i), %vj = spatial(8, %j)) {
        %zero = arith.constant 0.0 : f32
        tir.store %zero, %A[%vi, %vj] : memref<16x8xf32>
      }
    }
  }
  return
}

// -----

// Every loop kind has its T.* form, with the thread of a bound loop and
// the annotations (sorted by name) of an annotated one. T.grid takes only
// plain loops: a serial loop with annotations is T.serial, one that does
// not start at 0 is range(lo, hi); an empty body is T.evaluate(0).
// CHECK-LABEL: {{^}}def kinds(A: T.Buffer((64, 32), "float32")):
// CHECK-NEXT:  {{^}}    for bx in T.thread_binding(2, thread="blockIdx.x"):
// CHECK-NEXT:  {{^}}        for tx in T.thread_binding(32, thread="threadIdx.x"):
// CHECK-NEXT:  {{^}}            for p in T.parallel(2):
// CHECK-NEXT:  {{^}}                for u in T.unroll(4, annotations={"pragma_unroll_explicit": 1}):
// CHECK-NEXT:  {{^}}                    for v in T.vectorized(1):
// CHECK-NEXT:  {{^}}                        with T.block("A"):
// CHECK-NEXT:  {{^}}                            vi = T.axis.spatial(64, bx * 32 + tx)
// CHECK-NEXT:  {{^}}                            vj = T.axis.spatial(32, p * 16 + u * 4 + v)
// CHECK-NEXT:  {{^}}                            A[vi, vj] = T.float32(1.0)
// CHECK-NEXT:  {{^}}    for s, t in T.grid(2, 3):
// CHECK-NEXT:  {{^}}        T.evaluate(0)
// CHECK-NEXT:  {{^}}    for r in range(2, 6):
// CHECK-NEXT:  {{^}}        T.evaluate(0)
// CHECK-NEXT:  {{^}}    for a in T.serial(4, annotations={"note": "x", "software_pipeline_stage": 1}):
// CHECK-NEXT:  {{^}}        for b in range(4):
// CHECK-NEXT:  {{^}}            T.evaluate(0)
func.func @kinds(%A: memref<64x32xf32> {tir.name = "A"}) {
  tir.for %bx = 0 to 2 thread_binding<"blockIdx.x"> {
    tir.for %tx = 0 to 32 thread_binding<"threadIdx.x"> {
      tir.for %p = 0 to 2 parallel {
        tir.for %u = 0 to 4 unrolled annotations {pragma_unroll_explicit = 1} {
          tir.for %v = 0 to 1 vectorized {
            tir.block "A"(%vi = spatial(64, %bx * 32 + %tx), %vj = spatial(32, %p * 16 + %u * 4 + %v)) {
              %c = arith.constant 1.0 : f32
              tir.store %c, %A[%vi, %vj] : memref<64x32xf32>
            }
          }
        }
      }
    }
  }
  tir.for %s = 0 to 2 {
    tir.for %t = 0 to 3 {
    }
  }
  tir.for %r = 2 to 6 {
  }
  tir.for %a = 0 to 4 annotations {software_pipeline_stage = 1, note = "x"} {
    tir.for %b = 0 to 4 {
    }
  }
  return
}

// -----

// Loop bounds and block domains that are values: a scalar parameter
// (T.int32), and a buffer whose dynamic dimension it names (T.handle +
// T.match_buffer). Sibling loops reuse a name; a name taken in an
// enclosing scope gets a suffix.
// CHECK-LABEL: {{^}}def dynamic(n: T.int32, a: T.handle):
// CHECK-NEXT:  {{^}}    A = T.match_buffer(a, (n,), "float32")
// CHECK-NEXT:  {{^}}    for i in range(n):
// CHECK-NEXT:  {{^}}        with T.block("B"):
// CHECK-NEXT:  {{^}}            vi = T.axis.spatial(n, i)
// CHECK-NEXT:  {{^}}            A[vi] = T.float32(2.0)
// CHECK-NEXT:  {{^}}    for i in range(1, n):
// CHECK-NEXT:  {{^}}        for n_1 in T.parallel(4):
// CHECK-NEXT:  {{^}}            T.evaluate(0)
func.func @dynamic(%len: index {tir.name = "n"}, %A: memref<?xf32> {tir.name = "A"}) {
  tir.for %i = 0 to %len {
    tir.block "B"(%vi = spatial(%len, %i)) {
      %c = arith.constant 2.0 : f32
      tir.store %c, %A[%vi] : memref<?xf32>
    }
  }
  tir.for %i = 1 to %len {
    tir.for %n = 0 to 4 parallel {
    }
  }
  return
}

// -----

// A nest whose inner extent is the outer variable is not a T.grid: the
// grid's extents would use its own variables before they exist.
// CHECK-LABEL: {{^}}def triangle(B: T.Buffer((16, 16), "float32")):
// CHECK-NEXT:  {{^}}    for i in range(16):
// CHECK-NEXT:  {{^}}        for j in range(i):
// CHECK-NEXT:  {{^}}            with T.block("T"):
// CHECK-NEXT:  {{^}}                T.reads()
// CHECK-NEXT:  {{^}}                T.writes(B[i, j])
// CHECK-NEXT:  {{^}}                B[i, j] = T.float32(1.0)
func.func @triangle(%B: memref<16x16xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to %i {
      tir.block "T"() reads() writes(%B[%i, %j] : memref<16x16xf32>) {
        %one = arith.constant 1.0 : f32
        tir.store %one, %B[%i, %j] : memref<16x16xf32>
      }
    }
  }
  return
}
