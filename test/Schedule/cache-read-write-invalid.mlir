// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

func.func @f(%A: memref<8xf32> {tir.name = "A"}, %C: memref<8xf32> {tir.name = "C"}) {
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
    // expected-error @below {{cache_read: 'test_scope' is not a storage scope}}
    %s = transform.tir.cache_read %c {read_buffer_index = 0, storage_scope = "test_scope"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @f(%A: memref<8xf32> {tir.name = "A"}, %C: memref<8xf32> {tir.name = "C"}) {
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
    // expected-error @below {{cache_write: block 'C' writes 1 buffers; there is no write buffer 1}}
    %s = transform.tir.cache_write %c {write_buffer_index = 1, storage_scope = "local"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Two writers of the buffer the block reads.
func.func @f(%A: memref<8xf32> {tir.name = "A"}, %C: memref<8xf32> {tir.name = "C"}) {
  %T = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 4 {
    tir.block "T0"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %T[%vi] : memref<8xf32>
    }
  }
  tir.for %i = 4 to 8 {
    // expected-note @below {{block}}
    tir.block "T1"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %T[%vi] : memref<8xf32>
    }
  }
  tir.for %i = 0 to 8 {
    tir.block "C"(%vi = spatial(8, %i)) {
      %t = tir.load %T[%vi] : memref<8xf32>
      tir.store %t, %C[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cache_read needs at most one block writing buffer 'T' in the scope, but blocks 'T0' and 'T1' both write it}}
    %s = transform.tir.cache_read %c {read_buffer_index = 0, storage_scope = "shared"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// cache_inplace of a buffer the block only reads: nothing to copy back.
func.func @f(%A: memref<8xf32> {tir.name = "A"}, %C: memref<8xf32>) {
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
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cache_inplace needs block 'C' to write buffer 'A' as well as read it (an in-place update)}}
    %in, %out = transform.tir.cache_inplace %b {read_buffer_index = 0, storage_scope = "local"} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A block that lists more than it writes (a whole row where it writes one
// element, as loop_partition leaves its blocks): the copy back of the
// listed region would write the elements the block never wrote.
func.func @f(%A: memref<4x6xf32> {tir.name = "A"}, %C: memref<4x6xf32> {tir.name = "C"}) {
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 6 {
      // expected-note @below {{block}}
      tir.block "C"(%vi = spatial(4, %i), %vj = spatial(6, %j)) reads(%A[%vi, %vj] : memref<4x6xf32>) writes(%C[%vi, 0 : 6] : memref<4x6xf32>) {
        %a = tir.load %A[%vi, %vj] : memref<4x6xf32>
        tir.store %a, %C[%vi, %vj] : memref<4x6xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{cache_write needs block 'C' to list the region of buffer 'C' its body writes, but it lists a wider one (as loop_partition leaves them): the copy back of the listed region would overwrite elements the block never wrote}}
    %s = transform.tir.cache_write %b {write_buffer_index = 0, storage_scope = "local"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
