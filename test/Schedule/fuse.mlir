// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// Three loops fused: each variable is TVM's (fused mod (extent * inner))
// floordiv inner, written as one digit, (fused floordiv inner) mod extent
// (TVM's simplifier writes it so too), simplified where the range allows
// (the outermost needs no mod, the innermost no floordiv).
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

// -----

// Runtime extents: the fused extent is their product, computed before the
// loop; divisors are runtime values. Values computed between the loops (the
// extent of k) move before the fused loop.
// CHECK-LABEL: func.func @fuse_dynamic
// CHECK:         %[[M:.+]] = arith.addi
// CHECK:         %[[T:.+]] = affine.apply #{{.+}}()[%[[N:.+]], %[[M]]]
// CHECK:         tir.for %[[F:.+]] = 0 to %[[T]] {
// CHECK-NEXT:      tir.block "B"(%{{.+}} = spatial(8, %[[F]] floordiv (%[[M]] * %[[N]])), %{{.+}} = spatial(%[[N]], (%[[F]] mod (%[[M]] * %[[N]])) floordiv %[[M]]), %{{.+}} = spatial(%[[M]], %[[F]] mod %[[M]]))
func.func @fuse_dynamic(%n: index, %A: memref<8x?x?xf32>, %B: memref<8x?x?xf32>) {
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to %n {
      %m = arith.addi %n, %n : index
      tir.for %k = 0 to %m {
        tir.block "B"(%vi = spatial(8, %i), %vj = spatial(%n, %j), %vk = spatial(%m, %k)) {
          %a = tir.load %A[%vi, %vj, %vk] : memref<8x?x?xf32>
          tir.store %a, %B[%vi, %vj, %vk] : memref<8x?x?xf32>
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

// TVM's opaque blocks: uses of the loop variables outside bindings (here an
// opaque block's regions and the inner block's binding) get the fused
// expressions, through affine.apply.
// CHECK-LABEL: func.func @fuse_opaque
// CHECK:         tir.for %[[F:.+]] = 0 to 32 {
// CHECK-NEXT:      %[[I:.+]] = affine.apply #{{.+}}(%[[F]])
// CHECK-NEXT:      %[[J:.+]] = affine.apply #{{.+}}(%[[F]])
// CHECK-NEXT:      tir.block "opaque"() reads(%{{.+}}[%[[I]], %[[J]]] : memref<4x8xf32>) writes(%{{.+}}[%[[I]], %[[J]]] : memref<4x8xf32>) {
// CHECK-NEXT:        tir.block "B"(%{{.+}} = spatial(4, %[[F]] floordiv 8), %{{.+}} = spatial(8, %[[F]] mod 8))
func.func @fuse_opaque(%A: memref<4x8xf32>, %B: memref<4x8xf32>) {
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 8 {
      tir.block "opaque"() reads(%A[%i, %j] : memref<4x8xf32>) writes(%B[%i, %j] : memref<4x8xf32>) {
        tir.block "B"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
          %a = tir.load %A[%vi, %vj] : memref<4x8xf32>
          tir.store %a, %B[%vi, %vj] : memref<4x8xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "opaque" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f = transform.tir.fuse %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}
