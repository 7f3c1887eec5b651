// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

// Sibling loops are not on one nest.
func.func @siblings(%A: memref<8xf32>) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  tir.for %j = 0 to 8 {
    tir.block "D"(%vj = spatial(8, %j)) {
      %a = tir.load %A[%vj] : memref<8xf32>
      tir.store %a, %A[%vj] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.tir.get_block "D" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %j = transform.tir.get_loops %d : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reorder needs loops on one nest: loop 'i' is not above or below loop 'j'}}
    transform.tir.reorder %j, %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// The nest branches below i.
func.func @branching(%A: memref<8x8xf32>) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 8 {
    tir.block "D"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi, %vi] : memref<8x8xf32>
      tir.store %a, %A[%vi, %vi] : memref<8x8xf32>
    }
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{reorder needs a single-branch nest: loop 'i' holds more than the next loop of the nest}}
    transform.tir.reorder %j, %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A block between the loops.
func.func @across_block(%A: memref<8x8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "outer"(%vo = spatial(8, %i)) {
      tir.for %j = 0 to 8 {
        tir.block "inner"(%vi = spatial(8, %vo), %vj = spatial(8, %j)) {
          %c = arith.constant 0.0 : f32
          tir.store %c, %A[%vi, %vj] : memref<8x8xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %o = transform.tir.get_block "outer" in %root : (!transform.any_op) -> !transform.any_op
    %n = transform.tir.get_block "inner" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %o : (!transform.any_op) -> !transform.any_op
    %j = transform.tir.get_loops %n : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reorder cannot move loops across 'tir.block' (loops 'i' and 'j' are in different blocks)}}
    transform.tir.reorder %j, %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

func.func @twice(%A: memref<8xf32>) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reorder got loop 'i' twice}}
    transform.tir.reorder %i, %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// j's extent depends on i (a triangular nest).
func.func @dependent_bound(%A: memref<8x8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %j = 0 to %i {
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{reorder cannot move loop 'j': its bounds depend on loop 'i'}}
    transform.tir.reorder %j, %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// TVM's rule: reordered loops feed quasi-affine bindings (loops outside
// the reordered range act as parameters: %i0 * %i0 + %i1 would be fine for
// reordering %i1 with %j).
func.func @not_affine(%A: memref<64x4xf32>) {
  tir.for %i0 = 0 to 6 {
    tir.for %i1 = 0 to 4 {
      // expected-note @below {{loop}}
      tir.for %j = 0 to 4 {
        tir.block "B"(%vi = spatial(64, %i0 * %i0 + %i1), %vj = spatial(4, %j)) {
          %a = tir.load %A[%vi, %vj] : memref<64x4xf32>
          tir.store %a, %A[%vi, %vj] : memref<64x4xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i0, %i1, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // expected-error @below {{reorder needs affine bindings of the loops it changes, but block 'B' binds 'vi' to an expression that is not quasi-affine in them}}
    transform.tir.reorder %j, %i1, %i0 : !transform.any_op, !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// TVM's rule: reordered loops feed only spatial or reduce variables.
func.func @opaque_iter_var(%A: memref<8x8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vj = opaque(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{reorder needs the loops to feed only spatial or reduce iteration variables, but block 'B' binds a opaque variable to them}}
    transform.tir.reorder %j, %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// TVM's affine binding has stride 1: %l * 16 skips values.
func.func @strided_binding(%A: memref<8x128xf32>, %B: memref<8x128xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %l = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vl = spatial(128, %l * 16)) {
        %a = tir.load %A[%vi, %vl] : memref<8x128xf32>
        tir.store %a, %B[%vi, %vl] : memref<8x128xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %l = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{reorder needs affine bindings of the loops it changes, but block 'B' binds 'vl' with a stride other than 1 over them}}
    transform.tir.reorder %l, %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A predicate that mixes the loops (instead of bounding one binding, as
// split's predicates do) is not an affine binding either.
func.func @mixed_predicate(%A: memref<8x8xf32>, %B: memref<8x8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) where (%i * 8 + %j < 50) {
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
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{reorder needs affine bindings of the loops it changes, but block 'B' has a predicate over them that bounds none of its bindings}}
    transform.tir.reorder %j, %i : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// After fusing the spatial j with the reduction k and splitting the result,
// both pieces walk the points (vj) together: swapping them would run some
// updates of a point before its init (TVM v0.23 accepts this and computes
// wrong sums). The spatial i still moves freely.
func.func @init_after_updates(%A: memref<4x12xf32>, %C: memref<4x2xf32>) {
  tir.for %i = 0 to 4 {
    tir.for %o = 0 to 3 {
      // expected-note @below {{loop}}
      tir.for %in = 0 to 8 {
        tir.block "C"(%vi = spatial(4, %i), %vj = spatial(2, (%o * 8 + %in) floordiv 12), %vk = reduce(12, (%o * 8 + %in) mod 12)) {
          tir.init {
            %z = arith.constant 0.0 : f32
            tir.store %z, %C[%vi, %vj] : memref<4x2xf32>
          }
          %c = tir.load %C[%vi, %vj] : memref<4x2xf32>
          %a = tir.load %A[%vi, %vk] : memref<4x12xf32>
          %s = arith.addf %c, %a : f32
          tir.store %s, %C[%vi, %vj] : memref<4x2xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i, %o, %in = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.tir.reorder %o, %in, %i : !transform.any_op, !transform.any_op, !transform.any_op
    // expected-error @below {{reorder would run the init of block 'C' after some of its updates: loops 'o' and 'in' both feed its spatial and its reduce iteration variables, so their order must stay}}
    transform.tir.reorder %in, %o : !transform.any_op, !transform.any_op
    transform.yield
  }
}
