// RUN: tir-opt %s --tir-auto-unroll --convert-tir-to-scf --tir-unroll-loops -split-input-file -verify-diagnostics | FileCheck %s

// Full unrolling is limited to 16384 operations (trip count x body): beyond
// it the loop is refused, naming the count and the limit, instead of
// running for minutes. The loop annotation "unroll_limit" asks for more
// (0: no limit). Built end to end from Python: python/tests/test_bad_input.py.

func.func @too_long(%A: memref<100000xf32>) {
  // expected-error @below {{unrolling this loop fully (100000 iterations of 3 operations = 300000 operations) exceeds the limit of 16384 operations; unroll a shorter loop (split it first), or ask for it explicitly with the loop annotation "unroll_limit" = <operations> (0: no limit)}}
  tir.for %i = 0 to 100000 unrolled {
    tir.block "U"(%vi = spatial(100000, %i)) {
      %a = tir.load %A[%vi] : memref<100000xf32>
      %b = arith.addf %a, %a : f32
      tir.store %b, %A[%vi] : memref<100000xf32>
    }
  }
  return
}

// -----

// Nested: the inner loops are unrolled first (200 x 6 operations), so the
// outer one would make 100 x 1201.
func.func @nested(%A: memref<100x200xf32>) {
  // expected-error @below {{unrolling this loop fully (100 iterations of 1201 operations = 120100 operations) exceeds the limit of 16384 operations}}
  tir.for %i = 0 to 100 unrolled {
    tir.for %j = 0 to 200 unrolled {
      tir.block "U"(%vi = spatial(100, %i), %vj = spatial(200, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<100x200xf32>
        %b = arith.addf %a, %a : f32
        tir.store %b, %A[%vi, %vj] : memref<100x200xf32>
      }
    }
  }
  return
}

// -----

// A smaller limit, asked for on the loop.
func.func @lowered_limit(%A: memref<64xf32>) {
  // expected-error @below {{unrolling this loop fully (64 iterations of 3 operations = 192 operations) exceeds the limit of 100 operations}}
  tir.for %i = 0 to 64 unrolled annotations {unroll_limit = 100} {
    tir.block "U"(%vi = spatial(64, %i)) {
      %a = tir.load %A[%vi] : memref<64xf32>
      %b = arith.addf %a, %a : f32
      tir.store %b, %A[%vi] : memref<64xf32>
    }
  }
  return
}

// -----

func.func @bad_limit(%A: memref<64xf32>) {
  // expected-error @below {{annotation "unroll_limit" is "many"; it is a number of operations (0: no limit)}}
  tir.for %i = 0 to 64 unrolled annotations {unroll_limit = "many"} {
    tir.block "U"(%vi = spatial(64, %i)) {
      %a = tir.load %A[%vi] : memref<64xf32>
      tir.store %a, %A[%vi] : memref<64xf32>
    }
  }
  return
}

// -----

// Asked for explicitly: no limit.
// CHECK-LABEL: func.func @allowed
// CHECK-NOT:     scf.for
func.func @allowed(%A: memref<4xf32>) {
  tir.for %i = 0 to 4 unrolled annotations {unroll_limit = 0} {
    tir.block "U"(%vi = spatial(4, %i)) {
      %a = tir.load %A[%vi] : memref<4xf32>
      %b = arith.addf %a, %a : f32
      tir.store %b, %A[%vi] : memref<4xf32>
    }
  }
  return
}

// -----

// Loops MetaSchedule's pragma unrolls are bounded by its budget of
// statements (here 64 x 64 stores within 8192), not by the operation limit
// of loops written `unrolled`: the 4096 copies (over 16384 operations) are
// made.
// CHECK-LABEL: func.func @auto_unrolled
// CHECK-NOT:     scf.for
// CHECK-COUNT-4096: memref.store
// CHECK-NOT:     memref.store
func.func @auto_unrolled(%A: memref<64x64xf32>) {
  tir.for %i = 0 to 64 annotations {pragma_auto_unroll_max_step = 8192 : i64} {
    tir.for %j = 0 to 64 {
      tir.block "U"(%vi = spatial(64, %i), %vj = spatial(64, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<64x64xf32>
        %b = arith.addf %a, %a : f32
        tir.store %b, %A[%vi, %vj] : memref<64x64xf32>
      }
    }
  }
  return
}
