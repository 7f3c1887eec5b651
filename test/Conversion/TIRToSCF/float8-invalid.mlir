// RUN: tir-opt %s --convert-tir-to-scf --split-input-file --verify-diagnostics

// 8-bit floats are tensor-core operands: moved, not computed with.
func.func @add(%A: memref<8xf8E4M3FN>, %B: memref<8xf8E4M3FN>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf8E4M3FN>
      // expected-error @+1 {{'arith.addf' op computes with 'f8E4M3FN' values; 8-bit floats (float8_e4m3fn, float8_e5m2) are tensor-core operands}}
      %s = arith.addf %a, %a : f8E4M3FN
      tir.store %s, %B[%vi] : memref<8xf8E4M3FN>
    }
  }
  return
}

// -----

func.func @widen(%A: memref<8xf8E5M2>, %B: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf8E5M2>
      // expected-error @+1 {{'arith.extf' op computes with 'f8E5M2' values}}
      %w = arith.extf %a : f8E5M2 to f32
      tir.store %w, %B[%vi] : memref<8xf32>
    }
  }
  return
}

// -----

// A copy is fine.
func.func @copy(%A: memref<8xf8E4M3FN>, %B: memref<8xf8E4M3FN>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf8E4M3FN>
      tir.store %a, %B[%vi] : memref<8xf8E4M3FN>
    }
  }
  return
}
