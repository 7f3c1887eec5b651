// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

// A write region must hold what the block stores.
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
    // expected-error @below {{annotate_buffer_access: the write region given does not hold what block 'C' stores}}
    transform.tir.annotate_buffer_access %c {buffer_index = 0, buf_type = "write", gen_new_ranges = affine_map<(d0) -> (d0 + 1, d0 + 2)>} : !transform.any_op
    transform.yield
  }
}

// -----

// Ranges for another number of dimensions than the buffer has.
func.func @f(%A: memref<8x8xf32>, %C: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "C"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi, 0] : memref<8x8xf32>
      tir.store %a, %C[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{annotate_buffer_access: read buffer 0 of block 'C' has 2 dimensions, but 1 (begin, end) ranges are given}}
    transform.tir.annotate_buffer_access %c {buffer_index = 0, buf_type = "read", gen_new_ranges = affine_map<(d0) -> (d0, d0 + 1)>} : !transform.any_op
    transform.yield
  }
}

// -----

// An empty range; a buffer index past the block's reads.
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
    // expected-error @below {{annotate_buffer_access: range 0 is empty (its end is not after its begin)}}
    transform.tir.annotate_buffer_access %c {buffer_index = 0, buf_type = "read", gen_new_ranges = affine_map<(d0) -> (d0 + 1, d0)>} : !transform.any_op
    transform.yield
  }
}

// -----

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
    // expected-error @below {{annotate_buffer_access: block 'C' reads 1 buffers; there is no read buffer 3}}
    transform.tir.annotate_buffer_access %c {buffer_index = 3, buf_type = "read", gen_new_ranges = affine_map<(d0) -> (d0, d0 + 1)>} : !transform.any_op
    transform.yield
  }
}

// -----

func.func @f() {
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "root" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects buf_type "read" or "write", got "both"}}
    transform.tir.annotate_buffer_access %c {buffer_index = 0, buf_type = "both", gen_new_ranges = affine_map<(d0) -> (d0, d0 + 1)>} : !transform.any_op
    transform.yield
  }
}
