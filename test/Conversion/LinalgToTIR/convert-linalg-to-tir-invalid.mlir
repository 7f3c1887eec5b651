// --convert-linalg-to-tir leaves the ops it has no TensorIR block for as they
// are, with a remark naming the reason.
// RUN: tir-opt %s --convert-linalg-to-tir -split-input-file -verify-diagnostics

// Rule: a scalar operand is a constant (the block makes it).
func.func @fill(%o: memref<4xf32>, %v: f32) {
  // expected-remark @+1 {{left as it is: no TensorIR block computes it (it takes a scalar operand that is not a constant)}}
  linalg.fill ins(%v : f32) outs(%o : memref<4xf32>)
  return
}

