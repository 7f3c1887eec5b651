// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// Sizes 2 and 64 with the middle one inferred (-1, 128 - 2 - 64 = 62):
// [0, 2), [2, 64) and [64, 128).
// Each partition is a copy of the loop in an opaque
// block; blocks are renamed after the partition's loop variable, the
// variable bound to it gets the partition's range, and (as TVM) regions of
// buffers accessed at plain variables list those variables' domains.
// CHECK-LABEL: func.func @rows
// CHECK:         tir.block "B_i_common"() reads() writes() {
// CHECK-NEXT:      tir.block "B_i0_partition"() reads() writes() {
// CHECK-NEXT:        tir.for %[[I0:.+]] = 0 to 2 {
// CHECK-NEXT:          tir.for %[[J:.+]] = 0 to 16 {
// CHECK-NEXT:            tir.block "B_i0"(%{{.+}} = spatial(2, %[[I0]]), %{{.+}} = spatial(16, %[[J]]))
// CHECK-SAME:                reads(%{{[a-z0-9]+}}[0 : 2, 0 : 16]
// CHECK-SAME:                writes(%{{[a-z0-9]+}}[0 : 2, 0 : 16]
// CHECK:           tir.block "B_i1_partition"() reads() writes() {
// CHECK-NEXT:        tir.for %[[I1:.+]] = 2 to 64 {
// CHECK:               tir.block "B_i1"(%{{.+}} = spatial(2 : 64, %[[I1]]), %{{.+}} = spatial(16, %{{.+}}))
// CHECK-SAME:              reads(%{{[a-z0-9]+}}[2 : 64, 0 : 16]
// CHECK:           tir.block "B_i2_partition"() reads() writes() {
// CHECK-NEXT:        tir.for %[[I2:.+]] = 64 to 128 {
// CHECK:               tir.block "B_i2"(%{{.+}} = spatial(64 : 128, %[[I2]]), %{{.+}} = spatial(16, %{{.+}}))
// CHECK-NOT:     tir.block "B"(
func.func @rows(%A: memref<128x16xf32> {tir.name = "A"}, %B: memref<128x16xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 128 {
    tir.for %j = 0 to 16 {
      tir.block "B"(%vi = spatial(128, %i), %vj = spatial(16, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<128x16xf32>
        tir.store %a, %B[%vi, %vj] : memref<128x16xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %p:3 = transform.tir.loop_partition %i [2, ?, 64] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Without an inferred size the rest is one more partition; a loop that does
// not start at 0 is cut from its start.
// CHECK-LABEL: func.func @offset
// CHECK:         tir.block "B_i0_partition"
// CHECK-NEXT:      tir.for %{{.+}} = 4 to 7 {
// CHECK:         tir.block "B_i1_partition"
// CHECK-NEXT:      tir.for %{{.+}} = 7 to 20 {
func.func @offset(%A: memref<20xf32> {tir.name = "A"}) {
  tir.for %i = 4 to 20 {
    tir.block "B"(%vi = spatial(20, %i)) {
      %c = arith.constant 1.0 : f32
      tir.store %c, %A[%vi] : memref<20xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %p:2 = transform.tir.loop_partition %i [3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
