// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// A divisible split with an inferred factor: i -> (i_0, i_1), bound as
// i_0 * 4 + i_1, no predicate; the block handle stays valid.
// CHECK-LABEL: func.func @divisible
// CHECK:         tir.for %[[I0:.+]] = 0 to 4 {
// CHECK-NEXT:      tir.for %[[I1:.+]] = 0 to 4 {
// CHECK-NEXT:        tir.block "B"(%{{.+}} = spatial(16, %[[I0]] * 4 + %[[I1]])) {
func.func @divisible(%A: memref<16xf32>, %B: memref<16xf32>) {
  tir.for %i = 0 to 16 {
    tir.block "B"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi] : memref<16xf32>
      tir.store %a, %B[%vi] : memref<16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %i0, %i1 = transform.tir.split %i [?, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // The block handle is still good: its loops are the new ones.
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// 10 split by 4: ceil(10 / 4) = 3 outer iterations, and a predicate keeps
// the 2 extra ones out.
// CHECK-LABEL: func.func @non_divisible
// CHECK:         tir.for %[[O:.+]] = 0 to 3 {
// CHECK-NEXT:      tir.for %[[N:.+]] = 0 to 4 {
// CHECK-NEXT:        tir.block "B"(%{{.+}} = spatial(10, %[[O]] * 4 + %[[N]])) where(%[[O]] * 4 + %[[N]] < 10) {
func.func @non_divisible(%A: memref<10xf32>, %B: memref<10xf32>) {
  tir.for %i = 0 to 10 {
    tir.block "B"(%vi = spatial(10, %i)) {
      %a = tir.load %A[%vi] : memref<10xf32>
      tir.store %a, %B[%vi] : memref<10xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %o, %n = transform.tir.split %i [?, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Three factors; with preserve_unit_iters = false the unit loop is left out
// of the binding.
// CHECK-LABEL: func.func @three_factors
// CHECK:         tir.for %[[A:.+]] = 0 to 2 {
// CHECK-NEXT:      tir.for %[[U:.+]] = 0 to 1 {
// CHECK-NEXT:        tir.for %[[C:.+]] = 0 to 4 {
// CHECK-NEXT:          tir.block "B"(%{{.+}} = spatial(8, %[[A]] * 4 + %[[C]])) {
func.func @three_factors(%A: memref<8xf32>) {
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
    %x, %y, %z = transform.tir.split %i [2, 1, 4] {preserve_unit_iters = false} : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Fuse then split by the inner extent: the bindings simplify back to the
// plain loop variables (no floordiv or mod left).
// CHECK-LABEL: func.func @fuse_then_split
// CHECK:         tir.for %[[P:.+]] = 0 to 8 {
// CHECK-NEXT:      tir.for %[[Q:.+]] = 0 to 4 {
// CHECK-NEXT:        tir.block "B"(%{{.+}} = spatial(8, %[[P]]), %{{.+}} = spatial(4, %[[Q]])) {
func.func @fuse_then_split(%A: memref<8x4xf32>) {
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 4 {
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(4, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x4xf32>
        tir.store %a, %A[%vi, %vj] : memref<8x4xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f = transform.tir.fuse %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %p, %q = transform.tir.split %f [8, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A runtime extent: the inferred factor is ceildiv(n, 16), computed before
// the loops; the predicate keeps the last partial tile in bounds.
// CHECK-LABEL: func.func @split_dynamic
// CHECK:         %[[F:.+]] = affine.apply #{{.+}}(%[[N:[^)]+]])
// CHECK:         tir.for %[[I0:.+]] = 0 to %[[F]] {
// CHECK-NEXT:      tir.for %[[I1:.+]] = 0 to 16 {
// CHECK-NEXT:        tir.block "B"(%{{.+}} = spatial(%[[N]], %[[I0]] * 16 + %[[I1]])) where(%[[I0]] * 16 + %[[I1]] < %[[N]])
func.func @split_dynamic(%n: index, %A: memref<?xf32>, %B: memref<?xf32>) {
  tir.for %i = 0 to %n {
    tir.block "B"(%vi = spatial(%n, %i)) {
      %a = tir.load %A[%vi] : memref<?xf32>
      tir.store %a, %B[%vi] : memref<?xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %x, %y = transform.tir.split %i [?, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// An inner factor that is a runtime value: the outer loop's stride is it.
// CHECK-LABEL: func.func @split_dynamic_inner
// CHECK:         %[[F:.+]] = affine.apply #{{.+}}(%[[N:[^)]+]])
// CHECK:         tir.for %[[I0:.+]] = 0 to 10 {
// CHECK-NEXT:      tir.for %[[I1:.+]] = 0 to %[[F]] {
// CHECK-NEXT:        tir.block "B"(%{{.+}} = spatial(%[[N]], %[[I1]] + %[[I0]] * %[[F]])) where(%[[I0]] * %[[F]] + %[[I1]] < %[[N]])
func.func @split_dynamic_inner(%n: index, %A: memref<?xf32>, %B: memref<?xf32>) {
  tir.for %i = 0 to %n {
    tir.block "B"(%vi = spatial(%n, %i)) {
      %a = tir.load %A[%vi] : memref<?xf32>
      tir.store %a, %B[%vi] : memref<?xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %x, %y = transform.tir.split %i [10, ?] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// disable_predication: the caller asserts the factors divide the extent.
// CHECK-LABEL: func.func @split_no_predicate
// CHECK:         tir.block "B"(%{{.+}} = spatial(10, %{{.+}} * 4 + %{{.+}})) {
func.func @split_no_predicate(%A: memref<10xf32>, %B: memref<10xf32>) {
  tir.for %i = 0 to 10 {
    tir.block "B"(%vi = spatial(10, %i)) {
      %a = tir.load %A[%vi] : memref<10xf32>
      tir.store %a, %B[%vi] : memref<10xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %x, %y = transform.tir.split %i [3, 4] {disable_predication = true} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Uses of the variable outside bindings (the bound of an inner loop, an
// opaque block's region) get the split expression through affine.apply.
// CHECK-LABEL: func.func @split_opaque_uses
// CHECK:         tir.for %[[I0:.+]] = 0 to 4 {
// CHECK-NEXT:      tir.for %[[I1:.+]] = 0 to 4 {
// CHECK-NEXT:        %[[I:.+]] = affine.apply #{{.+}}(%[[I0]], %[[I1]])
// CHECK-NEXT:        tir.for %{{.+}} = 0 to %[[I]] {
// CHECK-NEXT:          tir.block "opaque"() reads(%{{.+}}[%[[I]]] : memref<16xf32>)
func.func @split_opaque_uses(%A: memref<16xf32>, %B: memref<16x16xf32>) {
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to %i {
      tir.block "opaque"() reads(%A[%i] : memref<16xf32>) writes(%B[%i, %j] : memref<16x16xf32>) {
        %a = tir.load %A[%i] : memref<16xf32>
        tir.store %a, %B[%i, %j] : memref<16x16xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "opaque" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %x, %y = transform.tir.split %i [4, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
