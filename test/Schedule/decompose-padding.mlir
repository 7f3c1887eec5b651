// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// Padding by 2 on each side, decomposed at its only loop: a constant fill
// over the whole buffer, then the copy over the 6 in-bound points, its
// loop shrunk and the index shifted (no predicate left).
// CHECK-LABEL: func.func @direct
// CHECK:         tir.for %[[I:.+]] = 0 to 10 {
// CHECK-NEXT:      tir.block "P_pad_const"(%[[V:.+]] = spatial(10, %[[I]])) reads() writes(%P[%[[V]]] : memref<10xf32>) {
// CHECK-NEXT:        %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:        tir.store %[[Z]], %P[%[[V]]]
// CHECK:         tir.for %[[J:.+]] = 0 to 6 {
// CHECK-NEXT:      tir.block "P"(%[[W:.+]] = spatial(6, %[[J]])) reads(%arg0[%[[W]]] : memref<6xf32>) writes(%P[%[[W]] + 2] : memref<10xf32>) {
// CHECK-NEXT:        %[[A:.+]] = tir.load %arg0[%[[W]]]
// CHECK-NEXT:        tir.store %[[A]], %P[%[[W]] + 2]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK:         tir.block "C"
func.func @direct(%A: memref<6xf32> {tir.name = "A"}, %C: memref<10xf32> {tir.name = "C"}) {
  %P = tir.alloc_buffer : memref<10xf32>
  tir.for %i = 0 to 10 {
    tir.block "P"(%vi = spatial(10, %i)) {
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %lo = arith.cmpi sge, %vi, %c2 : index
      %hi = arith.cmpi slt, %vi, %c8 : index
      %in = arith.andi %lo, %hi : i1
      %v = scf.if %in -> (f32) {
        %a = tir.load %A[%vi - 2] : memref<6xf32>
        scf.yield %a : f32
      } else {
        %z = arith.constant 0.0 : f32
        scf.yield %z : f32
      }
      tir.store %v, %P[%vi] : memref<10xf32>
    }
  }
  tir.for %i = 0 to 10 {
    tir.block "C"(%vi = spatial(10, %i)) {
      %p = tir.load %P[%vi] : memref<10xf32>
      tir.store %p, %C[%vi] : memref<10xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "P" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %fill = transform.tir.decompose_padding %b at %l : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Decomposed at the inner loop (the block's own predicate skips the last
// row, which C does not read): the fill's nest copies only that loop; the
// row loop stays shared, so the rows are bounded by the block's predicate
// (the padding condition's comparisons first, then the block's own, kept
// as TVM keeps them), the columns by shrinking their loop.
// CHECK-LABEL: func.func @inner
// CHECK:         tir.for %[[I:.+]] = 0 to 6 {
// CHECK-NEXT:      tir.for %[[J0:.+]] = 0 to 6 {
// CHECK-NEXT:        tir.block "P_pad_const"(%{{.+}} = spatial(6, %[[I]]), %{{.+}} = spatial(6, %[[J0]])) where(%[[I]] < 5) reads() writes(
// CHECK-NEXT:          arith.constant -1 : i32
// CHECK:           tir.for %[[J:.+]] = 0 to 4 {
// CHECK-NEXT:        tir.block "P"(%[[VI:.+]] = spatial(4, %[[I]] - 1), %[[VJ:.+]] = spatial(4, %[[J]])) where(%[[I]] >= 1 and %[[I]] < 5 and %[[I]] < 5)
// CHECK:               tir.load %arg0[%[[VI]], %[[VJ]]]
// CHECK:               tir.store %{{.+}}, %P[%[[VI]] + 1, %[[VJ]] + 1]
func.func @inner(%A: memref<4x4xi32> {tir.name = "A"}, %C: memref<5x6xi32> {tir.name = "C"}) {
  %P = tir.alloc_buffer : memref<6x6xi32>
  tir.for %i = 0 to 6 {
    tir.for %j = 0 to 6 {
      tir.block "P"(%vi = spatial(6, %i), %vj = spatial(6, %j)) where(%i < 5) {
        %c1 = arith.constant 1 : index
        %c5 = arith.constant 5 : index
        %a0 = arith.cmpi sge, %vi, %c1 : index
        %a1 = arith.cmpi slt, %vi, %c5 : index
        %a2 = arith.cmpi sge, %vj, %c1 : index
        %a3 = arith.cmpi slt, %vj, %c5 : index
        %b0 = arith.andi %a0, %a1 : i1
        %b1 = arith.andi %b0, %a2 : i1
        %in = arith.andi %b1, %a3 : i1
        %v = scf.if %in -> (i32) {
          %a = tir.load %A[%vi - 1, %vj - 1] : memref<4x4xi32>
          scf.yield %a : i32
        } else {
          %m = arith.constant -1 : i32
          scf.yield %m : i32
        }
        tir.store %v, %P[%vi, %vj] : memref<6x6xi32>
      }
    }
  }
  tir.for %i = 0 to 5 {
    tir.for %j = 0 to 6 {
      tir.block "C"(%vi = spatial(5, %i), %vj = spatial(6, %j)) {
        %p = tir.load %P[%vi, %vj] : memref<6x6xi32>
        tir.store %p, %C[%vi, %vj] : memref<5x6xi32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "P" in %root : (!transform.any_op) -> !transform.any_op
    %l:2 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill = transform.tir.decompose_padding %b at %l#1 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}
