// RUN: tir-opt %s --transform-interpreter | FileCheck %s

// Refused primitives (their failures suppressed here) leave the IR exactly
// as it was: nothing is rewritten before every rule has been checked.
// CHECK-LABEL: func.func @untouched
// CHECK-NEXT:    tir.for %[[I:.+]] = 0 to 16 {
// CHECK-NEXT:      tir.for %[[J:.+]] = 0 to %[[I]] {
// CHECK-NEXT:        tir.for %[[K:.+]] = 0 to 8 {
// CHECK-NEXT:          tir.block "C"(%{{.+}} = spatial(16, %[[I]]), %{{.+}} = spatial(16, %[[J]]), %{{.+}} = reduce(8, %[[K]])) {
func.func @untouched(%A: memref<16x16xf32>) {
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to %i {
      tir.for %k = 0 to 8 {
        tir.block "C"(%vi = spatial(16, %i), %vj = spatial(16, %j), %vk = reduce(8, %k)) {
          %a = tir.load %A[%vi, %vj] : memref<16x16xf32>
          tir.store %a, %A[%vi, %vj] : memref<16x16xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%r: !transform.any_op):
      %b = transform.tir.get_block "C" in %r : (!transform.any_op) -> !transform.any_op
      %i, %j, %k = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
      // The extent of j is dynamic: [2, 2] cannot be proven to cover it.
      %x, %y = transform.tir.split %j [2, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    }
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%r: !transform.any_op):
      %b = transform.tir.get_block "C" in %r : (!transform.any_op) -> !transform.any_op
      %i, %j, %k = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
      // 4 * 3 < 16.
      %x, %y = transform.tir.split %i [4, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    }
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%r: !transform.any_op):
      %b = transform.tir.get_block "C" in %r : (!transform.any_op) -> !transform.any_op
      %i, %j, %k = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
      // j's bounds depend on i.
      transform.tir.reorder %k, %j, %i : !transform.any_op, !transform.any_op, !transform.any_op
    }
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%r: !transform.any_op):
      %b = transform.tir.get_block "C" in %r : (!transform.any_op) -> !transform.any_op
      %i, %j, %k = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
      // k feeds a reduce variable.
      transform.tir.vectorize %k : !transform.any_op
    }
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%r: !transform.any_op):
      %b = transform.tir.get_block "C" in %r : (!transform.any_op) -> !transform.any_op
      %i, %j, %k = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
      // j's extent depends on i.
      %f = transform.tir.fuse %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    }
    transform.yield
  }
}
