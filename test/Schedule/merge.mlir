// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// Two nests that both read B, merged at their outermost loops: one loop
// i_0_m of 8 iterations runs C's and D's remaining loops in turn.
// CHECK-LABEL: func.func @two_nests
// CHECK:         tir.for %[[M:i_0_m]] = 0 to 8 {
// CHECK-NEXT:      tir.for %{{.+}} = 0 to 16 {
// CHECK:             tir.block "C"(%{{.+}} = spatial(128, %[[M]] * 16 + %{{.+}}))
// CHECK:           tir.for %{{.+}} = 0 to 8 {
// CHECK:             tir.block "D"(%{{.+}} = spatial(64, %[[M]] * 8 + %{{.+}}))
// CHECK-NOT:     tir.for %i_0
func.func @two_nests(%B: memref<128xf32> {tir.name = "B"}, %C: memref<128xf32> {tir.name = "C"}, %D: memref<64xf32> {tir.name = "D"}) {
  tir.for %i_0 = 0 to 8 {
    tir.for %i_1 = 0 to 16 {
      tir.block "C"(%vi = spatial(128, %i_0 * 16 + %i_1)) {
        %b = tir.load %B[%vi] : memref<128xf32>
        tir.store %b, %C[%vi] : memref<128xf32>
      }
    }
  }
  tir.for %i_0 = 0 to 8 {
    tir.for %i_1 = 0 to 8 {
      tir.block "D"(%vi = spatial(64, %i_0 * 8 + %i_1)) {
        %b = tir.load %B[%vi] : memref<128xf32>
        tir.store %b, %D[%vi] : memref<64xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.tir.get_block "D" in %root : (!transform.any_op) -> !transform.any_op
    %lc:2 = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %ld:2 = transform.tir.get_loops %d : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %m = transform.tir.merge %lc#0, %ld#0 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Merged at the second level: both levels of the nests merge, and the
// given order (D first) is the order of the bodies.
// CHECK-LABEL: func.func @second_level
// CHECK:         tir.for %[[I:i_m]] = 0 to 4 {
// CHECK-NEXT:      tir.for %[[J:j_m]] = 0 to 4 {
// CHECK-NEXT:        tir.block "D"(%{{.+}} = spatial(4, %[[I]]), %{{.+}} = spatial(4, %[[J]]))
// CHECK:             tir.block "C"(%{{.+}} = spatial(4, %[[I]]), %{{.+}} = spatial(4, %[[J]]))
func.func @second_level(%B: memref<4x4xf32> {tir.name = "B"}, %C: memref<4x4xf32> {tir.name = "C"}, %D: memref<4x4xf32> {tir.name = "D"}) {
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 4 {
      tir.block "C"(%vi = spatial(4, %i), %vj = spatial(4, %j)) {
        %b = tir.load %B[%vi, %vj] : memref<4x4xf32>
        tir.store %b, %C[%vi, %vj] : memref<4x4xf32>
      }
    }
  }
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 4 {
      tir.block "D"(%vi = spatial(4, %i), %vj = spatial(4, %j)) {
        %b = tir.load %B[%vi, %vj] : memref<4x4xf32>
        tir.store %b, %D[%vi, %vj] : memref<4x4xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.tir.get_block "D" in %root : (!transform.any_op) -> !transform.any_op
    %lc:2 = transform.tir.get_loops %c : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %ld:2 = transform.tir.get_loops %d : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %m = transform.tir.merge %ld#1, %lc#1 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}
