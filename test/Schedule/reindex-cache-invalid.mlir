// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

// The index map uses a variable the buffer's indices do not.
func.func @not_match(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8x8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, 0] : memref<8x8xf32>
        tir.store %a, %B[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reindex_cache_read: iteration variable 'vj' is used by the index map but not the buffer's indices}}
    %s = transform.tir.reindex_cache_read %b {read_buffer_index = 0, storage_scope = "shared", index_map = affine_map<(d0, d1) -> (d1, d0)>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A block reading a whole row per iteration: not a single point.
func.func @row(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(8, %i)) {
      tir.for %k = 0 to 8 {
        %a = tir.load %A[%vi, %k] : memref<8x8xf32>
        tir.store %a, %B[%vi] : memref<8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reindex_cache_read: block 'B' accesses more than one element of buffer 'A' per iteration; the cache needs a single point}}
    %s = transform.tir.reindex_cache_read %b {read_buffer_index = 0, storage_scope = "shared", index_map = affine_map<(d0) -> (d0)>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Two variables sent to the same cache element.
func.func @not_injective(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8x8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %B[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reindex_cache_write: the index map is not an injective affine map of block 'B''s variables}}
    %s = transform.tir.reindex_cache_write %b {write_buffer_index = 0, storage_scope = "shared", index_map = affine_map<(d0, d1) -> (d0 + d1)>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An in-place update without an init: the cache would start empty.
func.func @inplace(%A: memref<8xf32> {tir.name = "A"}) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      %b = arith.addf %a, %a : f32
      tir.store %b, %A[%vi] : memref<8xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reindex_cache_write: block 'B' reads buffer 'A' before writing it and has no tir.init}}
    %s = transform.tir.reindex_cache_write %b {write_buffer_index = 0, storage_scope = "shared", index_map = affine_map<(d0) -> (d0)>} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
