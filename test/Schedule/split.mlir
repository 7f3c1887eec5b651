// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// A divisible split with an inferred factor: i -> (i_0, i_1), bound as
// i_0 * 4 + i_1, no predicate; the block handle stays valid.
// CHECK-LABEL: func.func @divisible
// CHECK:         tir.for %[[I0:.+]] = 0 to 4 {
// CHECK-NEXT:      tir.for %[[I1:.+]] = 0 to 4 {
// CHECK-NEXT:        tir.block "B"(%{{.+}} = spatial(16, %[[I1]] + %[[I0]] * 4)) {
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
    %i0, %i1 = transform.tir.split %i [-1, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
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
// CHECK-NEXT:        tir.block "B"(%{{.+}} = spatial(10, %[[N]] + %[[O]] * 4)) where(%[[N]] + %[[O]] * 4 < 10) {
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
    %o, %n = transform.tir.split %i [-1, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
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
// CHECK-NEXT:          tir.block "B"(%{{.+}} = spatial(8, %[[C]] + %[[A]] * 4)) {
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
