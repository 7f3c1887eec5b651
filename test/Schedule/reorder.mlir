// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// k, i, j: the loops move (each keeps its bounds and variable), the block
// and its bindings do not change.
// CHECK-LABEL: func.func @kij
// CHECK:         tir.for %[[K:.+]] = 0 to 4 {
// CHECK-NEXT:      tir.for %[[I:.+]] = 0 to 8 parallel {
// CHECK-NEXT:        tir.for %[[J:.+]] = 0 to 6 {
// CHECK-NEXT:          tir.block "C"(%{{.+}} = spatial(8, %[[I]]), %{{.+}} = spatial(6, %[[J]]), %{{.+}} = reduce(4, %[[K]])) {
func.func @kij(%A: memref<8x4xf32>, %B: memref<4x6xf32>, %C: memref<8x6xf32>) {
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 6 {
      tir.for %k = 0 to 4 {
        tir.block "C"(%vi = spatial(8, %i), %vj = spatial(6, %j), %vk = reduce(4, %k)) {
          %zero = arith.constant 0.0 : f32
          tir.init {
            tir.store %zero, %C[%vi, %vj] : memref<8x6xf32>
          }
          %a = tir.load %A[%vi, %vk] : memref<8x4xf32>
          %b = tir.load %B[%vk, %vj] : memref<4x6xf32>
          %c = tir.load %C[%vi, %vj] : memref<8x6xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          tir.store %s, %C[%vi, %vj] : memref<8x6xf32>
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
    transform.tir.reorder %k, %i, %j : !transform.any_op, !transform.any_op, !transform.any_op
    // Handles follow their loops: %i is now the middle loop.
    transform.tir.parallel %i : !transform.any_op
    transform.yield
  }
}

// -----

// Only two of four loops named: the others keep their places; kinds and
// annotations travel with their loops.
// CHECK-LABEL: func.func @partial
// CHECK:         tir.for %[[D:.+]] = 0 to 5 annotations {tag = "d"} {
// CHECK-NEXT:      tir.for %[[B:.+]] = 0 to 3 {
// CHECK-NEXT:        tir.for %[[C:.+]] = 0 to 4 {
// CHECK-NEXT:          tir.for %[[A:.+]] = 0 to 2 unrolled {
func.func @partial(%X: memref<2x3x4x5xf32>) {
  tir.for %a = 0 to 2 unrolled {
    tir.for %b = 0 to 3 {
      tir.for %c = 0 to 4 {
        tir.for %d = 0 to 5 annotations {tag = "d"} {
          tir.block "B"(%va = spatial(2, %a), %vb = spatial(3, %b), %vc = spatial(4, %c), %vd = spatial(5, %d)) {
            %x = tir.load %X[%va, %vb, %vc, %vd] : memref<2x3x4x5xf32>
            tir.store %x, %X[%va, %vb, %vc, %vd] : memref<2x3x4x5xf32>
          }
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %blk = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %a, %b, %c, %d = transform.tir.get_loops %blk : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.tir.reorder %d, %a : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A predicate that bounds one binding (what split leaves) keeps the binding
// affine: reorder moves the loops, predicate and bindings unchanged.
// CHECK-LABEL: func.func @split_predicate
// CHECK:         tir.for %[[J:.+]] = 0 to 8 {
// CHECK-NEXT:      tir.for %[[I0:.+]] = 0 to 3 {
// CHECK-NEXT:        tir.for %[[I1:.+]] = 0 to 4 {
// CHECK-NEXT:          tir.block "B"(%{{.+}} = spatial(10, %[[I0]] * 4 + %[[I1]]), %{{.+}} = spatial(8, %[[J]])) where(%[[I0]] * 4 + %[[I1]] < 10)
func.func @split_predicate(%A: memref<10x8xf32>, %B: memref<10x8xf32>) {
  tir.for %i0 = 0 to 3 {
    tir.for %i1 = 0 to 4 {
      tir.for %j = 0 to 8 {
        tir.block "B"(%vi = spatial(10, %i0 * 4 + %i1), %vj = spatial(8, %j)) where (%i0 * 4 + %i1 < 10) {
          %a = tir.load %A[%vi, %vj] : memref<10x8xf32>
          tir.store %a, %B[%vi, %vj] : memref<10x8xf32>
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
    transform.tir.reorder %j, %i0, %i1 : !transform.any_op, !transform.any_op, !transform.any_op
    transform.yield
  }
}
