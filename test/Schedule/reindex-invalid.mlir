// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

// Two different indices of the same buffer.
func.func @two_indices(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8x8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vj, %vi] : memref<8x8xf32>
        %b = tir.load %A[%vi, %vj] : memref<8x8xf32>
        %c = arith.addf %a, %b : f32
        tir.store %c, %B[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reindex: block 'B' accesses buffer 'A' at more than one index}}
    %s = transform.tir.reindex %b {buffer_index = 0, buffer_index_type = "read"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// No such read buffer.
func.func @index(%A: memref<8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
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
    // expected-error @below {{reindex: block 'B' reads 1 buffers; there is no read buffer 1}}
    %s = transform.tir.reindex %b {buffer_index = 1, buffer_index_type = "read"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Not a leaf block.
func.func @outer(%A: memref<8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
  // expected-note @below {{block}}
  tir.block "outer"() {
    tir.for %i = 0 to 8 {
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
    %b = transform.tir.get_block "outer" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reindex: block 'outer' is not a leaf block: block 'B' is inside it}}
    %s = transform.tir.reindex %b {buffer_index = 0, buffer_index_type = "read"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A gather: the index is loaded inside the block.
func.func @gather(%A: memref<8xf32> {tir.name = "A"}, %I: memref<8xi32> {tir.name = "I"}, %B: memref<8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(8, %i)) {
      %x = tir.load %I[%vi] : memref<8xi32>
      %k = arith.index_cast %x : i32 to index
      %a = tir.load %A[%k] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reindex: block 'B' indexes buffer 'A' with a value computed inside the scope (a gather)}}
    %s = transform.tir.reindex %b {buffer_index = 1, buffer_index_type = "read"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The block shares its loop with another statement.
func.func @shared_loop(%A: memref<8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}, %C: memref<8xf32> {tir.name = "C"}) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
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
    // expected-error @below {{reindex: loop 'i' holds more than block 'B's nest}}
    %s = transform.tir.reindex %b {buffer_index = 0, buffer_index_type = "read"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A read copy of a buffer the block also writes would lose the writes.
func.func @inplace_read(%A: memref<8xf32> {tir.name = "A"}) {
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
    // expected-error @below {{reindex: block 'B' also writes buffer 'A', which a read copy would lose}}
    %s = transform.tir.reindex %b {buffer_index = 0, buffer_index_type = "read"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A write copy of a buffer read without a tir.init would start
// uninitialized.
func.func @inplace_write(%A: memref<8xf32> {tir.name = "A"}) {
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
    // expected-error @below {{reindex: block 'B' reads buffer 'A' before writing it and has no tir.init}}
    %s = transform.tir.reindex %b {buffer_index = 0, buffer_index_type = "write"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A buffer also used other than by loads and stores (a matched region).
func.func @matched(%A: memref<8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(8, %i)) {
      %m = tir.match_buffer %A[%vi : %vi + 1] : memref<8xf32> -> memref<1xf32>
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reindex: block 'B' uses buffer 'A' other than by loading or storing elements ('tir.match_buffer')}}
    %s = transform.tir.reindex %b {buffer_index = 0, buffer_index_type = "read"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A predicate that skips points of the domain: the copy out would store
// elements the block never wrote.
func.func @triangle(%A: memref<9x9xf32> {tir.name = "A"}, %B: memref<9x9xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 9 {
    tir.for %j = 0 to 9 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(9, %i), %vj = spatial(9, %j)) where(%j <= %i) {
        %a = tir.load %A[%vi, %vj] : memref<9x9xf32>
        tir.store %a, %B[%vi, %vj] : memref<9x9xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reindex: block 'B' has a predicate that skips points of its iteration domain}}
    %s = transform.tir.reindex %b {buffer_index = 0, buffer_index_type = "write"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The scope is an opaque block inside a loop: the block covers one row
// per execution of the scope, the copy would cover all of them.
func.func @opaque_scope(%A: memref<6x10xf32> {tir.name = "A"}, %B: memref<6x10xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 6 {
    tir.block "row"() {
      tir.for %j = 0 to 10 {
        // expected-note @below {{block}}
        tir.block "B"(%vi = spatial(6, %i), %vj = spatial(10, %j)) {
          %a = tir.load %A[%vi, %vj] : memref<6x10xf32>
          tir.store %a, %B[%vi, %vj] : memref<6x10xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reindex: a binding of block 'B' reads a value from outside the loops between it and its scope}}
    %s = transform.tir.reindex %b {buffer_index = 0, buffer_index_type = "write"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
