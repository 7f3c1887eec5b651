// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics | FileCheck %s

// The entry goes to the block that writes the buffer; a second call for the
// same dimension replaces it, one for another dimension (axis -1: the last)
// is added.
// CHECK-LABEL: func.func @two_stage
// CHECK:         tir.block "B"
// CHECK-SAME:      annotations {buffer_dim_align = {{\[}}[0, 0, 128, 127], [0, 1, 32, 1]]}
// CHECK:         tir.block "C"(
// CHECK-NOT:       annotations
// CHECK-SAME:      {
func.func @two_stage(%A: memref<128x128xf32>, %C: memref<128x128xf32>) {
  %B = tir.alloc_buffer : memref<128x128xf32>
  tir.for %i = 0 to 128 {
    tir.for %j = 0 to 128 {
      tir.block "B"(%vi = spatial(128, %i), %vj = spatial(128, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<128x128xf32>
        %two = arith.constant 2.0 : f32
        %b = arith.mulf %a, %two : f32
        tir.store %b, %B[%vi, %vj] : memref<128x128xf32>
      }
    }
  }
  tir.for %i = 0 to 128 {
    tir.for %j = 0 to 128 {
      tir.block "C"(%vi = spatial(128, %i), %vj = spatial(128, %j)) {
        %b = tir.load %B[%vi, %vj] : memref<128x128xf32>
        %one = arith.constant 1.0 : f32
        %c = arith.addf %b, %one : f32
        tir.store %c, %C[%vi, %vj] : memref<128x128xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.storage_align %b {buffer_index = 0, axis = 0, factor = 128, offset = 0} : !transform.any_op
    transform.tir.storage_align %b {buffer_index = 0, axis = 0, factor = 128, offset = 127} : !transform.any_op
    transform.tir.storage_align %b {buffer_index = 0, axis = -1, factor = 32, offset = 1} : !transform.any_op
    transform.yield
  }
}

// -----

// Past the block's writes.
func.func @refused(%A: memref<16x16xf32>, %C: memref<16x16xf32>) {
  %B = tir.alloc_buffer : memref<16x16xf32>
  tir.for %i = 0 to 16 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi, %vi] : memref<16x16xf32>
      tir.store %a, %B[%vi, %vi] : memref<16x16xf32>
    }
  }
  tir.for %i = 0 to 16 {
    tir.block "C"(%vi = spatial(16, %i)) {
      %b = tir.load %B[%vi, %vi] : memref<16x16xf32>
      tir.store %b, %C[%vi, %vi] : memref<16x16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{storage_align: block 'B' writes 1 buffers; there is no write buffer 1}}
    transform.tir.storage_align %b {buffer_index = 1, axis = 0, factor = 16, offset = 1} : !transform.any_op
    transform.yield
  }
}

// -----

// An axis past the rank.
func.func @refused(%A: memref<16x16xf32>, %C: memref<16x16xf32>) {
  %B = tir.alloc_buffer : memref<16x16xf32>
  tir.for %i = 0 to 16 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi, %vi] : memref<16x16xf32>
      tir.store %a, %B[%vi, %vi] : memref<16x16xf32>
    }
  }
  tir.for %i = 0 to 16 {
    tir.block "C"(%vi = spatial(16, %i)) {
      %b = tir.load %B[%vi, %vi] : memref<16x16xf32>
      tir.store %b, %C[%vi, %vi] : memref<16x16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{storage_align: axis 2 is out of range for write buffer 0 of rank 2}}
    transform.tir.storage_align %b {buffer_index = 0, axis = 2, factor = 16, offset = 1} : !transform.any_op
    transform.yield
  }
}

// -----

// A factor below 1.
func.func @refused(%A: memref<16x16xf32>, %C: memref<16x16xf32>) {
  %B = tir.alloc_buffer : memref<16x16xf32>
  tir.for %i = 0 to 16 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi, %vi] : memref<16x16xf32>
      tir.store %a, %B[%vi, %vi] : memref<16x16xf32>
    }
  }
  tir.for %i = 0 to 16 {
    tir.block "C"(%vi = spatial(16, %i)) {
      %b = tir.load %B[%vi, %vi] : memref<16x16xf32>
      tir.store %b, %C[%vi, %vi] : memref<16x16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{storage_align: the factor must be positive, got 0}}
    transform.tir.storage_align %b {buffer_index = 0, axis = 0, factor = 0, offset = 1} : !transform.any_op
    transform.yield
  }
}

// -----

// A parameter: its layout is the caller's.
func.func @refused(%A: memref<16x16xf32>, %C: memref<16x16xf32>) {
  %B = tir.alloc_buffer : memref<16x16xf32>
  tir.for %i = 0 to 16 {
    tir.block "B"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi, %vi] : memref<16x16xf32>
      tir.store %a, %B[%vi, %vi] : memref<16x16xf32>
    }
  }
  tir.for %i = 0 to 16 {
    // expected-note @below {{block}}
    tir.block "C"(%vi = spatial(16, %i)) {
      %b = tir.load %B[%vi, %vi] : memref<16x16xf32>
      tir.store %b, %C[%vi, %vi] : memref<16x16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{storage_align: write buffer 0 of block 'C' is not allocated in the function}}
    transform.tir.storage_align %b {buffer_index = 0, axis = 0, factor = 16, offset = 1} : !transform.any_op
    transform.yield
  }
}

// -----

// An annotation of another shape.
func.func @refused(%A: memref<16x16xf32>, %C: memref<16x16xf32>) {
  %B = tir.alloc_buffer : memref<16x16xf32>
  tir.for %i = 0 to 16 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi, %vi] : memref<16x16xf32>
      tir.store %a, %B[%vi, %vi] : memref<16x16xf32>
    }
  }
  tir.for %i = 0 to 16 {
    tir.block "C"(%vi = spatial(16, %i)) {
      %b = tir.load %B[%vi, %vi] : memref<16x16xf32>
      tir.store %b, %C[%vi, %vi] : memref<16x16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.annotate "buffer_dim_align" = [0 : i64] to %b : !transform.any_op
    // expected-error @below {{storage_align: the block's 'buffer_dim_align' annotation is not a list of [buffer_index, axis, factor, offset] entries}}
    transform.tir.storage_align %b {buffer_index = 0, axis = 0, factor = 16, offset = 1} : !transform.any_op
    transform.yield
  }
}
