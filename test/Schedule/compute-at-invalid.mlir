// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

// compute_at of an output block (C writes an argument).
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %j = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "C"(%vj = spatial(8, %j)) {
      %b = tir.load %B[%vj] : memref<8xf32>
      tir.store %b, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %j = transform.tir.get_loops %c : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{compute_at needs a block that is not an output block}}
    transform.tir.compute_at %c at %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// The loop contains the block.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  // expected-note @below {{loop}}
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %j = 0 to 8 {
    tir.block "C"(%vj = spatial(8, %j)) {
      %b = tir.load %B[%vj] : memref<8xf32>
      tir.store %b, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %j = transform.tir.get_loops %c : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{compute_at needs a loop that is not an ancestor of the block}}
    transform.tir.compute_at %b at %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A consumer (D) is not under the loop.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %j = 0 to 8 {
    tir.block "C"(%vj = spatial(8, %j)) {
      %b = tir.load %B[%vj] : memref<8xf32>
      tir.store %b, %C[%vj] : memref<8xf32>
    }
  }
  tir.for %k = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "D"(%vk = spatial(8, %k)) {
      %b = tir.load %B[%vk] : memref<8xf32>
      tir.store %b, %A[%vk] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %j = transform.tir.get_loops %c : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{compute_at needs all the consumers of block 'B' under loop 'j', but block 'D' is not}}
    transform.tir.compute_at %b at %j : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// An index outside the places between producers and consumers.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  // expected-note @below {{loop}}
  tir.for %j = 0 to 8 {
    tir.block "C"(%vj = spatial(8, %j)) {
      %b = tir.load %B[%vj] : memref<8xf32>
      tir.store %b, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %j = transform.tir.get_loops %c : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{compute_at got index 3; the valid ones are -1, -2 and [0, 0]}}
    transform.tir.compute_at %b at %j {index = 3} : !transform.any_op, !transform.any_op
    transform.yield
  }
}
