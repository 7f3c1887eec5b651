// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

// A string that is not a storage scope.
func.func @f(%A: memref<8xf32>, %B: memref<16xf32>) {
  tir.for %i = 0 to 16 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi floordiv 2] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cache_index: 'texture' is not a storage scope}}
    %i = transform.tir.cache_index %b {storage_scope = "texture"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A negative threshold.
func.func @f(%A: memref<8xf32>, %B: memref<16xf32>) {
  tir.for %i = 0 to 16 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi floordiv 2] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cache_index: cse_thresh must be >= 0, got -1}}
    %i = transform.tir.cache_index %b {storage_scope = "global", cse_thresh = -1} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A computation of a variable whose domain is a runtime value: its buffer
// would have no static shape.
func.func @f(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  tir.for %i = 0 to %n {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(%n, %i)) {
      %a = tir.load %A[%vi floordiv 2] : memref<?xf32>
      tir.store %a, %B[%vi] : memref<?xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cache_index: the domain of iteration variable 'vi' of block 'B' is not constant}}
    %i = transform.tir.cache_index %b {storage_scope = "global"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Results naming one stage each, but another number of computations.
func.func @f(%A: memref<8xf32>, %B: memref<16xf32>) {
  tir.for %i = 0 to 16 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi floordiv 2] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cache_index finds 1 computation(s) to cache in block 'B', but 2 result(s) were asked for}}
    %i, %j = transform.tir.cache_index %b {storage_scope = "global"} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
