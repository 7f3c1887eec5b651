// RUN: tir-opt %s --transform-interpreter --split-input-file -verify-diagnostics
// Every refusal of blockize (each leaves the IR as it was).

// A term mixing loops on both sides of the blockized loop (a fused loop split).
func.func @mixed(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8x8xf32> {tir.name = "B"}) {
  tir.for %fo = 0 to 16 {
    tir.for %fi = 0 to 4 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(8, (%fo * 4 + %fi) floordiv 8), %vj = spatial(8, (%fo * 4 + %fi) mod 8)) {
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
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
         // expected-error @below {{blockize needs the binding of 'vi' of block 'B' to divide into a part over the loops above loop 'fi' and one over it and below, but a term mixes both}}
    %o = transform.tir.blockize %l1 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An inner part that does not run densely from 0 (a stride of 2).
func.func @stride(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8x8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 4 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j * 2)) {
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
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
         // expected-error @below {{blockize needs the binding of 'vj' of block 'B' to divide into a part over the loops above loop 'j' and one over it and below, but its inner part does not run densely from 0}}
    %o = transform.tir.blockize %l1 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A domain that is not a multiple of the inner part's extent.
func.func @domain(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8x8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.for %jo = 0 to 2 {
    tir.for %ji = 0 to 3 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %jo * 3 + %ji)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %B[%vi, %vj] : memref<8x8xf32>
      }
    }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1, %l2 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
         // expected-error @below {{blockize needs the binding of 'vj' of block 'B' to divide into a part over the loops above loop 'ji' and one over it and below, but its domain is not a multiple of the inner part's extent 3 from 0}}
    %o = transform.tir.blockize %l2 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A loop holding two blocks.
func.func @two(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8x8xf32> {tir.name = "B"}, %C: memref<8x8xf32> {tir.name = "C"}) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %B[%vi, %vj] : memref<8x8xf32>
      }
      tir.block "C"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %C[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
         // expected-error @below {{blockize needs loop 'i' to hold exactly one block, but it holds 2}}
    %o = transform.tir.blockize %l0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Blocks with a tir.init in the list form (TVM drops their init).
func.func @init(%A: memref<8x8xf32> {tir.name = "A"}, %S: memref<8xf32> {tir.name = "S"}) {
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 8 {
      // expected-note @below {{block}}
      tir.block "S"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %S[%vi] : memref<8xf32>
        }
        %s = tir.load %S[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[%vi] : memref<8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
         // expected-error @below {{blockize does not support blocks with a tir.init in the form of a list of blocks (TVM drops their init)}}
    %o = transform.tir.blockize %b : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Blocks whose outer parts differ at their common loop.
func.func @differ(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8x8xf32> {tir.name = "B"}, %C: memref<8x8xf32> {tir.name = "C"}) {
  tir.for %m = 0 to 8 {
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %m), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %B[%vi, %vj] : memref<8x8xf32>
      }
    }
    tir.for %j = 0 to 8 {
      // expected-note @below {{block}}
      tir.block "C"(%vi = spatial(8, %j), %vj = spatial(8, %m)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %C[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
         // expected-error @below {{blockize needs the blocks' variables to divide alike at their common ancestor (the same outer parts), but those of block 'C' differ from those of block 'B'}}
    %o = transform.tir.blockize %b, %c : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A block holding blocks (an opaque block over a row): its body would be
// rebuilt and the handles to the blocks inside lost; not supported yet.
func.func @nested(%A: memref<6x10xf32> {tir.name = "A"}, %B: memref<6x10xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 6 {
    // expected-note @below {{block}}
    tir.block "row"() {
      tir.for %j = 0 to 10 {
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
    %b = transform.tir.get_block "row" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{blockize does not support block 'row', which holds blocks, loops or buffers of its own, yet}}
    %o = transform.tir.blockize %l : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
