// RUN: tir-opt %s --tir-check-bounds --split-input-file -verify-diagnostics -o /dev/null
// RUN: tir-opt %s --tir-check-bounds=warn-guarded=true --split-input-file 2>&1 | FileCheck %s --check-prefix=GUARDED

// Out-of-bounds accesses are accepted by the verifier; the pass reports
// those that are not guarded.
func.func @unguarded(%A: memref<16xf32>, %B: memref<16xf32>) {
  tir.for %i = 0 to 16 {
    tir.block "B"(%vi = spatial(16, %i)) {
      // expected-warning @below {{tir.load index 0 ranges over [1, 16], partly outside the buffer's [0, 15]}}
      %a = tir.load %A[%vi + 1] : memref<16xf32>
      tir.store %a, %B[%vi] : memref<16xf32>
    }
  }
  return
}

// -----

func.func @always(%A: memref<16xf32>, %B: memref<16xf32>) {
  tir.for %i = 0 to 4 {
    tir.block "B"(%vi = spatial(4, %i)) {
      %a = tir.load %A[%vi] : memref<16xf32>
      // expected-warning @below {{tir.store index 0 ranges over [20, 23], always outside the buffer's [0, 15]}}
      tir.store %a, %B[%vi + 20] : memref<16xf32>
    }
  }
  return
}

// -----

// A split's padded tile: the predicate guards the access.
// GUARDED: tir.load index 0 ranges over [0, 19], partly outside the buffer's [0, 9] (the access is guarded)
func.func @predicate(%A: memref<10xf32>, %B: memref<10xf32>) {
  tir.for %i0 = 0 to 5 {
    tir.for %i1 = 0 to 4 {
      tir.block "B"(%vi = spatial(20, %i0 * 4 + %i1)) where (%i0 * 4 + %i1 < 10) {
        %a = tir.load %A[%vi] : memref<10xf32>
        tir.store %a, %B[%vi] : memref<10xf32>
      }
    }
  }
  return
}

// -----

// if_then_else: the load only matters where the condition holds.
func.func @select(%A: memref<16xf32>, %B: memref<16xf32>) {
  tir.for %i = 0 to 16 {
    tir.block "B"(%vi = spatial(16, %i)) {
      %c15 = arith.constant 15 : index
      %in = arith.cmpi slt, %vi, %c15 : index
      %a = tir.load %A[%vi + 1] : memref<16xf32>
      %z = arith.constant 0.0 : f32
      %v = arith.select %in, %a, %z : f32
      tir.store %v, %B[%vi] : memref<16xf32>
    }
  }
  return
}
