// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

// The output buffer is the caller's: its scope is not the schedule's.
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
    // expected-error @below {{set_scope: write buffer 0 of block 'C' is not allocated in the function}}
    transform.tir.set_scope %c {buffer_index = 0, storage_scope = "shared"} : !transform.any_op
    transform.yield
  }
}

// -----

// An index past the block's writes, and a negative one.
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
    // expected-error @below {{set_scope: block 'B' writes 1 buffers; there is no write buffer 1}}
    transform.tir.set_scope %b {buffer_index = 1, storage_scope = "shared"} : !transform.any_op
    transform.yield
  }
}

// -----

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
    // expected-error @below {{set_scope: block 'B' writes 1 buffers; there is no write buffer -1}}
    transform.tir.set_scope %b {buffer_index = -1, storage_scope = "shared"} : !transform.any_op
    transform.yield
  }
}

// -----

// Not a storage scope.
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
    // expected-error @below {{set_scope: 'test_scope' is not a storage scope}}
    transform.tir.set_scope %b {buffer_index = 0, storage_scope = "test_scope"} : !transform.any_op
    transform.yield
  }
}
