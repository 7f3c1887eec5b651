// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics
//
// Every refusal of compute_inline and reverse_compute_inline; the
// interpreter's expensive checks verify that each leaves the IR unchanged.

// A producer with a tir.init.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(8, %i)) reads(%A[%vi] : memref<8xf32>) writes(%B[%vi] : memref<8xf32>) {
      tir.init {
        %z = arith.constant 0.0 : f32
        tir.store %z, %B[%vi] : memref<8xf32>
      }
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
    %t = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{compute_inline needs a block without tir.init}}
    transform.tir.compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A producer writing two buffers.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  %D = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
      tir.store %a, %D[%vi] : memref<8xf32>
    }
  }
  tir.for %j = 0 to 8 {
    tir.block "C"(%vj = spatial(8, %j)) {
      %b = tir.load %B[%vj] : memref<8xf32>
      %d = tir.load %D[%vj] : memref<8xf32>
      %s = arith.addf %b, %d : f32
      tir.store %s, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{compute_inline needs a block that writes a single buffer}}
    transform.tir.compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A scope that is not a stage pipeline: X overwrites A, which B reads.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %k = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "X"(%vk = spatial(8, %k)) {
      %z = arith.constant 0.0 : f32
      tir.store %z, %A[%vk] : memref<8xf32>
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
    %t = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{compute_inline needs a scope that is a stage pipeline}}
    transform.tir.compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// An output block: B writes an argument.
func.func @f(%A: memref<8xf32>, %B: memref<8xf32>, %C: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
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
    %t = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{compute_inline needs a block that is not an output block}}
    transform.tir.compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A producer that is not complete (a reduce variable).
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = reduce(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[0] : memref<8xf32>
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
    %t = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{compute_inline needs a complete block}}
    transform.tir.compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A producer whose store leaves out a variable (not bijective).
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 2 {
      // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(8, %i), %vk = spatial(2, %k)) {
        %a = tir.load %A[%vi] : memref<8xf32>
        tir.store %a, %B[%vi] : memref<8xf32>
      }
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
    %t = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{compute_inline needs the store of block 'B' to be a bijective affine map}}
    transform.tir.compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A producer whose body is not one store (a loop in it).
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(8, %i)) {
      tir.for %k = 0 to 2 {
        %a = tir.load %A[%vi] : memref<8xf32>
        tir.store %a, %B[%vi] : memref<8xf32>
      }
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
    %t = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{compute_inline needs the body of block 'B' to be one store}}
    transform.tir.compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// An opaque use of the buffer (a call takes it).
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %j = 0 to 8 {
    tir.block "C"(%vj = spatial(8, %j)) reads(%B[0 : 8] : memref<8xf32>) writes(%C[%vj] : memref<8xf32>) {
      %c0 = arith.constant 0 : index
      // expected-note @below {{payload op}}
      %p = tir.call "tvm_access_ptr"(f32, %B, %c0, 8, 1 : i32) : (memref<8xf32>, index) -> !llvm.ptr
      %b = tir.load %B[%vj] : memref<8xf32>
      tir.store %b, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{compute_inline needs the buffer accessed only by loads and stores}}
    transform.tir.compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A match_buffer of the buffer.
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
      // expected-note @below {{payload op}}
      %m = tir.match_buffer %B[%vj] : memref<8xf32> -> memref<1xf32, strided<[1], offset: ?>>
      %b = tir.load %m[0] : memref<1xf32, strided<[1], offset: ?>>
      tir.store %b, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{compute_inline needs the buffer accessed only by loads and stores}}
    transform.tir.compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// The producer uses a value defined in its loop, not available at the consumer.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    %x = arith.constant 3.0 : f32
    tir.block "B"(%vi = spatial(8, %i)) {
      tir.store %x, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %j = 0 to 8 {
    tir.block "C"(%vj = spatial(8, %j)) {
      // expected-note @below {{payload op}}
      %b = tir.load %B[%vj] : memref<8xf32>
      tir.store %b, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{compute_inline cannot move the computation of block 'B' here}}
    transform.tir.compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A consumer with a tir.init.
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
    tir.block "C"(%vj = spatial(8, %j)) reads(%B[%vj] : memref<8xf32>) writes(%C[%vj] : memref<8xf32>) {
      tir.init {
        %z = arith.constant 0.0 : f32
        tir.store %z, %C[%vj] : memref<8xf32>
      }
      %b = tir.load %B[%vj] : memref<8xf32>
      tir.store %b, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reverse_compute_inline needs a block without tir.init}}
    transform.tir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A consumer reading no buffer written in its scope.
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
      %a = tir.load %A[%vj] : memref<8xf32>
      tir.store %a, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reverse_compute_inline needs a block that reads a single buffer written in its scope, but block 'C' reads 0}}
    transform.tir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A consumer reading two buffers written in its scope.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  %D = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %i = 0 to 8 {
    tir.block "D"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %D[%vi] : memref<8xf32>
    }
  }
  tir.for %j = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "C"(%vj = spatial(8, %j)) {
      %b = tir.load %B[%vj] : memref<8xf32>
      %d = tir.load %D[%vj] : memref<8xf32>
      %s = arith.addf %b, %d : f32
      tir.store %s, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reads 2}}
    transform.tir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// Two producers of the buffer (neither is complete).
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %i = 0 to 8 {
    tir.block "B2"(%vi = spatial(8, %i)) {
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
    %t = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reverse_compute_inline needs the producer of block 'C' to be a complete block}}
    transform.tir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// An output producer: the buffer is an argument.
func.func @f(%A: memref<8xf32>, %B: memref<8xf32>, %C: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
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
    %t = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reverse_compute_inline needs a producer that is not an output block}}
    transform.tir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A consumer with a predicate.
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
    tir.block "C"(%vj = spatial(8, %j)) where(%j < 4) {
      %b = tir.load %B[%vj] : memref<8xf32>
      tir.store %b, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{but it has a predicate}}
    transform.tir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// Loads of the buffer at different indices.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %j = 0 to 7 {
    // expected-note @below {{block}}
    tir.block "C"(%vj = spatial(7, %j)) {
      %b = tir.load %B[%vj] : memref<8xf32>
      %b1 = tir.load %B[%vj + 1] : memref<8xf32>
      %s = arith.addf %b, %b1 : f32
      tir.store %s, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{it loads the buffer at different indices}}
    transform.tir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A non-affine index map (one variable in two indices).
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8x8xf32>
  tir.for %i = 0 to 8 {
    tir.for %i2 = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vk = spatial(8, %i2)) {
        %a = tir.load %A[%vi] : memref<8xf32>
        tir.store %a, %B[%vi, %vk] : memref<8x8xf32>
      }
    }
  }
  tir.for %j = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "C"(%vj = spatial(8, %j)) {
      %b = tir.load %B[%vj, %vj] : memref<8x8xf32>
      tir.store %b, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{do not split their sum into adjacent parts}}
    transform.tir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A producer that does not cover the consumer's domain.
func.func @f(%A: memref<8xf32>, %C: memref<16xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %j = 0 to 16 {
    // expected-note @below {{block}}
    tir.block "C"(%vj = spatial(16, %j)) {
      %b = tir.load %B[%vj - 8] : memref<8xf32>
      tir.store %b, %C[%vj] : memref<16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the producer does not cover its iteration variable}}
    transform.tir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// Another block reads the buffer (TVM accepts it, and the reader would read nothing).
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>, %D: memref<8xf32>) {
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
  tir.for %j = 0 to 8 {
    tir.block "D"(%vj = spatial(8, %j)) {
      %b = tir.load %B[%vj] : memref<8xf32>
      tir.store %b, %D[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{to be the only reader of what its producer writes}}
    transform.tir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A read of one position of a dimension the producer iterates (TVM accepts it and writes C at every position).
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<2x8xf32>
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 2 {
      tir.block "B"(%vi = spatial(8, %i), %vk = spatial(2, %k)) {
        %a = tir.load %A[%vi] : memref<8xf32>
        tir.store %a, %B[%vk, %vi] : memref<2x8xf32>
      }
    }
  }
  tir.for %j = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "C"(%vj = spatial(8, %j)) {
      %b = tir.load %B[1, %vj] : memref<2x8xf32>
      tir.store %b, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{it reads only index 1 of dimension 0}}
    transform.tir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// An opaque use of the buffer in the consumer.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %j = 0 to 8 {
    tir.block "C"(%vj = spatial(8, %j)) reads(%B[%vj] : memref<8xf32>) writes(%C[%vj] : memref<8xf32>) {
      %b = tir.load %B[%vj] : memref<8xf32>
      // expected-note @below {{payload op}}
      %r = tir.call "use"(%B, %b) : (memref<8xf32>, f32) -> f32
      tir.store %r, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reverse_compute_inline needs the buffer accessed only by loads and stores}}
    transform.tir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A producer whose store takes a part of a fused sum smaller than the buffer's dimension (B[v floordiv 4, v mod 4] in a 2 x 8 buffer: the load B[x, 5] is no iteration of it).
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<2x8xf32>
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi floordiv 4, %vi mod 4] : memref<2x8xf32>
    }
  }
  tir.for %j = 0 to 8 {
    tir.block "C"(%vj = spatial(8, %j)) {
      %b = tir.load %B[%vj floordiv 4, %vj mod 4] : memref<2x8xf32>
      tir.store %b, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{index 1 takes a part of a fused sum smaller than the buffer's dimension}}
    transform.tir.compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A consumer that is not complete (a reduce variable).
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
    tir.block "C"(%vj = reduce(8, %j)) {
      %b = tir.load %B[%vj] : memref<8xf32>
      tir.store %b, %C[0] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reverse_compute_inline needs a complete block}}
    transform.tir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A consumer whose body is not one store.
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
      tir.for %k = 0 to 1 {
        tir.store %b, %C[%vj] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{but it is not a single store}}
    transform.tir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A producer whose body is not one store.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.for %k = 0 to 1 {
        tir.store %a, %B[%vi] : memref<8xf32>
      }
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
    %t = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{needs the body of the producer 'B' to be one store of the buffer}}
    transform.tir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A producer index that may leave the part of a split index the consumer reads (TVM accepts it; two producer elements would map to one of C).
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<2x8xf32>
  tir.for %i = 0 to 2 {
    tir.for %k = 0 to 8 {
      tir.block "B"(%vi = spatial(2, %i), %vk = spatial(8, %k)) {
        %a = tir.load %A[%vk] : memref<8xf32>
        tir.store %a, %B[%vi, %vk] : memref<2x8xf32>
      }
    }
  }
  tir.for %j = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "C"(%vj = spatial(8, %j)) {
      %b = tir.load %B[%vj floordiv 4, %vj mod 4] : memref<2x8xf32>
      tir.store %b, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the producer's index 1 may leave [0, 4)}}
    transform.tir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A consumer over a runtime domain the producer's does not match.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>, %n: index) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %j = 0 to %n {
    // expected-note @below {{block}}
    tir.block "C"(%vj = spatial(%n, %j)) {
      %b = tir.load %B[%vj] : memref<8xf32>
      tir.store %b, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{has a runtime domain}}
    transform.tir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// The consumer uses a value defined in its loop, not available at the producer.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %j = 0 to 8 {
    %x = arith.constant 3.0 : f32
    tir.block "C"(%vj = spatial(8, %j)) {
      %b = tir.load %B[%vj] : memref<8xf32>
      %s = arith.addf %b, %x : f32
      tir.store %s, %C[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reverse_compute_inline cannot move the computation of block 'C' here}}
    transform.tir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// The only block of its scope (an outer block's): TVM does not remove the only leaf.
func.func @f(%A: memref<8xf32>, %C: memref<8xf32>) {
  tir.block "root"() {
    %B = tir.alloc_buffer : memref<8xf32>
    tir.for %i = 0 to 8 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(8, %i)) {
        %a = tir.load %A[%vi] : memref<8xf32>
        tir.store %a, %B[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the only block of its scope}}
    transform.tir.compute_inline %t : !transform.any_op
    transform.yield
  }
}

// -----

// A producer storing at an index it computes (a gather's scatter).
func.func @f(%A: memref<8xf32>, %I: memref<8xi32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      %x = tir.load %I[%vi] : memref<8xi32>
      %k = arith.index_cast %x : i32 to index
      tir.store %a, %B[%k] : memref<8xf32>
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
    %t = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the producer's store uses a value other than its iteration variables}}
    transform.tir.reverse_compute_inline %t : !transform.any_op
    transform.yield
  }
}
