// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// A unit loop around a block (the block handle stays valid) and around a
// loop; bindings do not change.
// CHECK-LABEL: func.func @unit
// CHECK:         tir.for %[[U:.+]] = 0 to 1 {
// CHECK-NEXT:      tir.for %[[I:.+]] = 0 to 8 {
// CHECK-NEXT:        tir.for %[[U2:.+]] = 0 to 1 {
// CHECK-NEXT:          tir.block "B"(%{{.+}} = spatial(8, %[[I]])) annotations {seen = true} {
func.func @unit(%A: memref<8xf32>) {
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
    %u2 = transform.tir.add_unit_loop %b : (!transform.any_op) -> !transform.any_op
    %u = transform.tir.add_unit_loop %i : (!transform.any_op) -> !transform.any_op
    transform.tir.annotate "seen" = true to %b : !transform.any_op
    transform.yield
  }
}
