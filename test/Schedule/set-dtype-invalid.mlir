// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

// The output buffer is the caller's: its dtype is not the schedule's.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "C"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %C[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unsafe_set_dtype: the input buffer is not allocated by a block}}
    transform.tir.unsafe_set_dtype %c {buffer_index = 0, dtype = "float16"} : !transform.any_op
    transform.yield
  }
}

// -----

// An index past the block's writes.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unsafe_set_dtype: block 'B' writes 1 buffers; there is no write buffer 1}}
    transform.tir.unsafe_set_dtype %b {buffer_index = 1, dtype = "float16"} : !transform.any_op
    transform.yield
  }
}

// -----

// A name that is no dtype.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{unsafe_set_dtype: 'half' is not a scalar dtype}}
    transform.tir.unsafe_set_dtype %b {buffer_index = 0, dtype = "half"} : !transform.any_op
    transform.yield
  }
}
