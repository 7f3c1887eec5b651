// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

// read_at at a loop the block is not under.
func.func @f(%A: memref<8xf32>, %B: memref<8xf32>, %C: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  // expected-note @below {{loop}}
  tir.for %i = 0 to 8 {
    tir.block "C"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %C[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %l:1 = transform.tir.get_loops %c : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{read_at: block 'B' is not under loop 'i'}}
    %s = transform.tir.read_at %b at %l#0 {read_buffer_index = 0, storage_scope = "shared"} : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An unknown scope.
func.func @f(%A: memref<8xf32>, %B: memref<8xf32>) {
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
    %l:1 = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{write_at: 'fast' is not a storage scope}}
    %s = transform.tir.write_at %b at %l#0 {write_buffer_index = 0, storage_scope = "fast"} : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The statements that read the buffer also write it (a reduction's
// output): a copy made before them would miss their writes.
func.func @f(%A: memref<8x8xf32>, %C: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %k = 0 to 8 {
      tir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) reads(%C[%vi], %A[%vi, %vk] : memref<8xf32>, memref<8x8xf32>) writes(%C[%vi] : memref<8xf32>) {
        %c = tir.load %C[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %c, %a : f32
        tir.store %s, %C[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %l:2 = transform.tir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{read_at: a statement of loop 'k' writes 'buffer' where it is read, or after}}
    %c = transform.tir.read_at %s at %l#1 {read_buffer_index = 0, storage_scope = "local"} : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Copies are made of global buffers: a shared source would be relaxed over
// its own threads too.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %S = tir.alloc_buffer : memref<8xf32, "shared">
  tir.for %i = 0 to 8 {
    tir.block "S"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %S[%vi] : memref<8xf32, "shared">
    }
  }
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "C"(%vi = spatial(8, %i)) {
      %s = tir.load %S[%vi] : memref<8xf32, "shared">
      tir.store %s, %C[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %l:1 = transform.tir.get_loops %c : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{read_at: buffer 'S' is in storage scope 'shared'; copies are made of global buffers}}
    %r = transform.tir.read_at %c at %l#0 {read_buffer_index = 0, storage_scope = "local"} : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}
