// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// A transposed read gets a copy in the block's order, filled before the
// nest; the write gets one copied out after it.
// CHECK-LABEL: func.func @transpose
// CHECK:         %[[AR:.+]] = tir.alloc_buffer : memref<16x8xf32>
// CHECK-NEXT:    %[[BR:.+]] = tir.alloc_buffer : memref<16x8xf32>
// CHECK-NEXT:    tir.for %[[AX0:.+]] = 0 to 16 {
// CHECK-NEXT:      tir.for %[[AX1:.+]] = 0 to 8 {
// CHECK-NEXT:        tir.block "A_reindex"(%[[V0:.+]] = spatial(16, %[[AX0]]), %[[V1:.+]] = spatial(8, %[[AX1]]))
// CHECK-SAME:          reads(%arg0[%[[V1]], %[[V0]]] : memref<8x16xf32>) writes(%[[AR]][%[[V0]], %[[V1]]] : memref<16x8xf32>)
// CHECK-NEXT:          %[[X:.+]] = tir.load %arg0[%[[V1]], %[[V0]]]
// CHECK-NEXT:          tir.store %[[X]], %[[AR]][%[[V0]], %[[V1]]]
// CHECK:         tir.block "B"(%[[VI:.+]] = spatial(16, %i), %[[VJ:.+]] = spatial(8, %j))
// CHECK-NEXT:      tir.load %[[AR]][%[[VI]], %[[VJ]]]
// CHECK:           tir.store %{{.+}}, %[[BR]][%[[VI]], %[[VJ]]]
// CHECK:         tir.block "B_reindex"(%[[W0:.+]] = spatial(16, %{{.+}}), %[[W1:.+]] = spatial(8, %{{.+}}))
// CHECK-NEXT:      %[[Y:.+]] = tir.load %[[BR]][%[[W0]], %[[W1]]]
// CHECK-NEXT:      tir.store %[[Y]], %arg1[%[[W0]] floordiv 4, %[[W0]] mod 4, %[[W1]]]
// CHECK:       return
func.func @transpose(%A: memref<8x16xf32> {tir.name = "A"}, %B: memref<4x4x8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(16, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vj, %vi] : memref<8x16xf32>
        %two = arith.constant 2.0 : f32
        %b = arith.mulf %a, %two : f32
        tir.store %b, %B[%vi floordiv 4, %vi mod 4, %vj] : memref<4x4x8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.tir.reindex %b {buffer_index = 0, buffer_index_type = "read"} : (!transform.any_op) -> !transform.any_op
    %t = transform.tir.reindex %b {buffer_index = 0, buffer_index_type = "write"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Indices are simplified with the domains first (`co floordiv 8 * 3 + rc`
// is `rc`), so the copy has only the variables they use, spatial; a
// reduction's output copy keeps the tir.init and the reduction in the
// block, and the output is copied out after the nest.
// CHECK-LABEL: func.func @conv
// CHECK:         %[[DR:.+]] = tir.alloc_buffer : memref<4x2x3xf32>
// CHECK-NEXT:    %[[OR:.+]] = tir.alloc_buffer : memref<4x8xf32>
// CHECK:         tir.block "D_reindex"(%[[H:.+]] = spatial(4, %{{.+}}), %[[R:.+]] = spatial(2, %{{.+}}), %[[C:.+]] = spatial(3, %{{.+}}))
// CHECK-NEXT:      %[[X:.+]] = tir.load %arg0[%[[H]] + %[[R]], %[[C]]]
// CHECK-NEXT:      tir.store %[[X]], %[[DR]][%[[H]], %[[R]], %[[C]]]
// CHECK:         tir.block "conv"(%[[VH:.+]] = spatial(4, %h), %[[VC:.+]] = spatial(8, %co), %[[VR:.+]] = reduce(2, %rh), %[[VRC:.+]] = reduce(3, %rc))
// CHECK-SAME:      reads(%[[OR]][%[[VH]], %[[VC]]], %[[DR]][%[[VH]], %[[VR]], %[[VRC]]], %arg1[%[[VR]], %[[VRC]], %[[VC]]] : memref<4x8xf32>, memref<4x2x3xf32>, memref<2x3x8xf32>)
// CHECK-SAME:      writes(%[[OR]][%[[VH]], %[[VC]]] : memref<4x8xf32>)
// CHECK:           tir.init {
// CHECK-NEXT:        arith.constant
// CHECK-NEXT:        tir.store %{{.+}}, %[[OR]][%[[VH]], %[[VC]]]
// CHECK:           tir.load %[[OR]][%[[VH]], %[[VC]]]
// CHECK:           tir.load %[[DR]][%[[VH]], %[[VR]], %[[VRC]]]
// CHECK:           tir.store %{{.+}}, %[[OR]][%[[VH]], %[[VC]]]
// CHECK:         tir.block "O_reindex"
// CHECK:           tir.store %{{.+}}, %arg2[
// CHECK:       return
func.func @conv(%D: memref<5x3xf32> {tir.name = "D"}, %W: memref<2x3x8xf32> {tir.name = "W"}, %O: memref<4x8xf32> {tir.name = "O"}) {
  tir.for %h = 0 to 4 {
    tir.for %co = 0 to 8 {
      tir.for %rh = 0 to 2 {
        tir.for %rc = 0 to 3 {
          tir.block "conv"(%vh = spatial(4, %h), %vc = spatial(8, %co), %vr = reduce(2, %rh), %vrc = reduce(3, %rc))
              reads(%O[%vh, %vc], %D[%vh + %vr, %vc floordiv 8 * 3 + %vrc], %W[%vr, %vrc, %vc] : memref<4x8xf32>, memref<5x3xf32>, memref<2x3x8xf32>)
              writes(%O[%vh, %vc] : memref<4x8xf32>) {
            tir.init {
              %z = arith.constant 0.0 : f32
              tir.store %z, %O[%vh, %vc] : memref<4x8xf32>
            }
            %o = tir.load %O[%vh, %vc] : memref<4x8xf32>
            %d = tir.load %D[%vh + %vr, %vc floordiv 8 * 3 + %vrc] : memref<5x3xf32>
            %w = tir.load %W[%vr, %vrc, %vc] : memref<2x3x8xf32>
            %m = arith.mulf %d, %w : f32
            %s = arith.addf %o, %m : f32
            tir.store %s, %O[%vh, %vc] : memref<4x8xf32>
          }
        }
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "conv" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.tir.reindex %b {buffer_index = 1, buffer_index_type = "read"} : (!transform.any_op) -> !transform.any_op
    %t = transform.tir.reindex %b {buffer_index = 0, buffer_index_type = "write"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Unit variables keep their dimension (an index that simplifies to a
// constant is left as it is), and a loop domain with a lower bound gives
// the copy's loop that bound.
// CHECK-LABEL: func.func @unit
// CHECK:         tir.alloc_buffer : memref<1x12xf32>
// CHECK:         tir.for %{{.+}} = 0 to 1 {
// CHECK-NEXT:      tir.for %[[AX:.+]] = 4 to 12 {
// CHECK-NEXT:        tir.block "A_reindex"(%[[U:.+]] = spatial(1, %{{.+}}), %[[V:.+]] = spatial(4 : 12, %[[AX]]))
// CHECK-NEXT:          tir.load %arg0[%[[U]], %[[V]] - 4]
func.func @unit(%A: memref<1x8xf32> {tir.name = "A"}, %B: memref<1x8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 1 {
    tir.for %j = 4 to 12 {
      tir.block "B"(%vi = spatial(1, %i), %vj = spatial(4 : 12, %j)) {
        %a = tir.load %A[%vi, %vj - 4] : memref<1x8xf32>
        tir.store %a, %B[%vi, %vj - 4] : memref<1x8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.tir.reindex %b {buffer_index = 0, buffer_index_type = "read"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
