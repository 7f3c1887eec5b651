// RUN: tir-opt %s -split-input-file -verify-diagnostics

// Found by tir-fuzz-lower: the verifier of tir.dim_vars and
// tir.axis_separators took the argument's type from the function's entry
// block, which MLIR verifies against the signature only after the argument
// attributes: a body without arguments (`func.func @f(index {...}) {...}`)
// or a declaration without a body was a null dereference (a segfault in
// tir-opt). The types now come from the signature.

// expected-error @below {{'tir.dim_vars' of argument 0 is only allowed on a buffer (memref) argument}}
func.func @dim_vars_on_scalar(index {tir.dim_vars = ["n"]}) {
  return
}

// -----

// expected-error @below {{'tir.dim_vars' of argument 1 names dimension 0 'n', the name of argument 0, which is not an integer or index scalar}}
func.func @dim_vars_name_of_a_buffer(memref<4xf32> {tir.name = "n"}, memref<?xf32> {tir.dim_vars = ["n"]}) {
  return
}

// -----

// expected-error @below {{entry block must have 1 arguments to match function signature}}
func.func @dim_vars_ok(memref<?xf32> {tir.dim_vars = ["n"]}) {
  return
}

// -----

// expected-error @below {{'tir.axis_separators' of argument 0 must be an array<i64> of ascending dimension indices between 1 and the rank - 1 of a buffer argument}}
func.func @axis_separators_on_rank_1(memref<4xf32> {tir.axis_separators = array<i64: 1>}) {
  return
}

// -----

// expected-error @below {{entry block must have 1 arguments to match function signature}}
func.func @axis_separators_ok(memref<4x4xf32> {tir.axis_separators = array<i64: 1>}) {
  return
}

// -----

// A declaration has no entry block at all: its attributes verify.
func.func private @declaration(memref<?x4x4xf32> {tir.dim_vars = ["n", "", ""], tir.axis_separators = array<i64: 2>})
