// RUN: tir-opt %s --tir-narrow-predicated-loops -split-input-file | FileCheck %s

// Extent 3 split by [6, 6, 7, 6] (the schedule-diff case that took LLVM
// 150 s): only the innermost loop keeps more than one iteration. The
// predicate and the binding stay as they were.
// CHECK-LABEL: func.func @overshooting_split
// CHECK:         tir.for %{{.+}} = 0 to 15 unrolled
// CHECK-NEXT:      tir.for %[[A:.+]] = 0 to 1 {
// CHECK-NEXT:        tir.for %[[B:.+]] = 0 to 1 {
// CHECK-NEXT:          tir.for %[[C:.+]] = 0 to 1 {
// CHECK-NEXT:            tir.for %[[D:.+]] = 0 to 3 {
// CHECK-NEXT:              tir.block "T1"(%{{.+}} = spatial(17, %{{.+}} + %[[A]] * 252 + %[[B]] * 42 + %[[C]] * 6 + %[[D]])) where(%[[A]] * 252 + %[[B]] * 42 + %[[C]] * 6 + %[[D]] < 3)
func.func @overshooting_split(%A: memref<17xf32>) {
  tir.for %i = 0 to 15 unrolled {
    tir.for %a = 0 to 6 {
      tir.for %b = 0 to 6 {
        tir.for %c = 0 to 7 {
          tir.for %d = 0 to 6 {
            tir.block "T1"(%vi = spatial(17, %i + %a * 252 + %b * 42 + %c * 6 + %d)) where(%a * 252 + %b * 42 + %c * 6 + %d < 3) {
              %z = arith.constant 0.0 : f32
              tir.store %z, %A[%vi] : memref<17xf32>
            }
          }
        }
      }
    }
  }
  return
}

// -----

// Lower bounds move up too, and a loop the predicate relates to another is
// bounded by what the other's range allows (j >= i + 5 with i >= 0).
// CHECK-LABEL: func.func @both_sides
// CHECK:         tir.for %{{.+}} = 0 to 3 {
// CHECK-NEXT:      tir.for %{{.+}} = 5 to 8 {
func.func @both_sides(%A: memref<8x8xf32>) {
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) where(%j >= %i + 5) {
        %z = arith.constant 0.0 : f32
        tir.store %z, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}

// -----

// A disjunction: the hull of its parts ([0, 1] and [6, 7] give 0 to 8, no
// change); a part that cannot hold adds nothing ([0, 1] only).
// CHECK-LABEL: func.func @disjunction
// CHECK:         tir.for %{{.+}} = 0 to 8 {
// CHECK:         tir.for %{{.+}} = 0 to 2 {
func.func @disjunction(%A: memref<8xf32>, %B: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "A"(%vi = spatial(8, %i)) where(%i < 2 or %i >= 6) {
      %z = arith.constant 0.0 : f32
      tir.store %z, %A[%vi] : memref<8xf32>
    }
  }
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) where(%i < 2 or %i >= 9) {
      %z = arith.constant 0.0 : f32
      tir.store %z, %B[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

// Left alone: a loop that holds more than the predicated block (the other
// block needs every iteration), vectorized and thread-bound loops (lane
// count and launch size are the user's), and a loop of runtime extent.
// CHECK-LABEL: func.func @left_alone
// CHECK:         tir.for %{{.+}} = 0 to 8 {
// CHECK:         tir.for %{{.+}} = 0 to 8 vectorized
// CHECK:         tir.for %{{.+}} = 0 to 8 thread_binding<"threadIdx.x">
// CHECK:         tir.for %{{.+}} = 0 to %{{.+}} {
func.func @left_alone(%A: memref<8xf32>, %B: memref<8xf32>, %n: index) {
  tir.for %i = 0 to 8 {
    tir.block "P"(%vi = spatial(8, %i)) where(%i < 2) {
      %z = arith.constant 0.0 : f32
      tir.store %z, %A[%vi] : memref<8xf32>
    }
    tir.block "Q"(%vi = spatial(8, %i)) {
      %z = arith.constant 1.0 : f32
      tir.store %z, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %i = 0 to 8 vectorized {
    tir.block "V"(%vi = spatial(8, %i)) where(%i < 2) {
      %z = arith.constant 0.0 : f32
      tir.store %z, %A[%vi] : memref<8xf32>
    }
  }
  tir.for %i = 0 to 8 thread_binding<"threadIdx.x"> {
    tir.block "T"(%vi = spatial(8, %i)) where(%i < 2) {
      %z = arith.constant 0.0 : f32
      tir.store %z, %A[%vi] : memref<8xf32>
    }
  }
  tir.for %i = 0 to %n {
    tir.block "D"(%vi = spatial(8, %i)) where(%i < 2) {
      %z = arith.constant 0.0 : f32
      tir.store %z, %A[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

// A predicate no iteration satisfies: the loop runs no iteration.
// CHECK-LABEL: func.func @never
// CHECK:         tir.for %{{.+}} = 0 to 0 {
func.func @never(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "N"(%vi = spatial(8, %i)) where(%i >= 8) {
      %z = arith.constant 0.0 : f32
      tir.store %z, %A[%vi] : memref<8xf32>
    }
  }
  return
}
