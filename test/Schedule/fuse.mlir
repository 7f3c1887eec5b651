// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// Three loops fused: each variable is (fused floordiv inner) mod extent,
// simplified where the range allows (the outermost needs no mod, the
// innermost no floordiv).
// CHECK-LABEL: func.func @fuse3
// CHECK:         tir.for %[[F:.+]] = 0 to 120 {
// CHECK-NEXT:      tir.block "B"(%{{.+}} = spatial(2, %[[F]] floordiv 60), %{{.+}} = spatial(3, (%[[F]] floordiv 20) mod 3), %{{.+}} = spatial(20, %[[F]] mod 20)) {
// CHECK-NOT:     tir.for
func.func @fuse3(%A: memref<2x3x20xf32>) {
  tir.for %i = 0 to 2 {
    tir.for %j = 0 to 3 {
      tir.for %k = 0 to 20 {
        tir.block "B"(%vi = spatial(2, %i), %vj = spatial(3, %j), %vk = spatial(20, %k)) {
          %a = tir.load %A[%vi, %vj, %vk] : memref<2x3x20xf32>
          tir.store %a, %A[%vi, %vj, %vk] : memref<2x3x20xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %f = transform.tir.fuse %i, %j, %k : (!transform.any_op, !transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Fusing the two outer loops of three: the inner loop stays.
// CHECK-LABEL: func.func @fuse_outer
// CHECK:         tir.for %[[F:.+]] = 0 to 32 {
// CHECK-NEXT:      tir.for %[[K:.+]] = 0 to 4 unrolled {
// CHECK-NEXT:        tir.block "C"(%{{.+}} = spatial(8, %[[F]] floordiv 4), %{{.+}} = spatial(4, %[[F]] mod 4), %{{.+}} = reduce(4, %[[K]])) {
func.func @fuse_outer(%A: memref<8x4xf32>, %C: memref<8x4xf32>) {
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 4 {
      tir.for %k = 0 to 4 {
        tir.block "C"(%vi = spatial(8, %i), %vj = spatial(4, %j), %vk = reduce(4, %k)) {
          %a = tir.load %A[%vi, %vk] : memref<8x4xf32>
          %c = tir.load %C[%vi, %vj] : memref<8x4xf32>
          %s = arith.addf %a, %c : f32
          tir.store %s, %C[%vi, %vj] : memref<8x4xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %f = transform.tir.fuse %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    // The inner loop's handle is still good.
    transform.tir.unroll %k : !transform.any_op
    transform.yield
  }
}
