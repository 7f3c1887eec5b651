// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// A nearest-neighbour resize: its two index computations get a buffer each
// (the more complex first), indexed by the variables they use and filled
// before the block's loop nest; the block loads them and lists them among
// its reads.
// CHECK-LABEL: func.func @resize
// CHECK:         %[[I0:index_var_0]] = tir.alloc_buffer : memref<8x8xi32>
// CHECK:         %[[I1:index_var_1]] = tir.alloc_buffer : memref<8xi32>
// CHECK:         tir.for %[[AX0:.+]] = 0 to 8 {
// CHECK-NEXT:      tir.for %[[AX1:.+]] = 0 to 8 {
// CHECK-NEXT:        tir.block "index_0"(%[[V0:.+]] = spatial(8, %[[AX0]]), %[[V1:.+]] = spatial(8, %[[AX1]])) reads() writes(%[[I0]][%[[V0]], %[[V1]]] : memref<8x8xi32>) {
// CHECK:               %[[S:.+]] = affine.apply
// CHECK-NEXT:          %[[C:.+]] = arith.index_cast %[[S]] : index to i32
// CHECK-NEXT:          tir.store %[[C]], %[[I0]][%[[V0]], %[[V1]]] : memref<8x8xi32>
// CHECK:         tir.for %[[AX:.+]] = 0 to 8 {
// CHECK-NEXT:      tir.block "index_1"(%[[V:.+]] = spatial(8, %[[AX]]))
// CHECK:         tir.block "B"(%[[VI:.+]] = spatial(8, %{{.+}}), %[[VJ:.+]] = spatial(8, %{{.+}})) reads(%{{.+}}[%[[VI]] floordiv 2 + %[[VJ]] floordiv 2, %[[VJ]] floordiv 2], %[[I0]][%[[VI]], %[[VJ]]], %[[I1]][%[[VJ]]] : memref<8x4xf32>, memref<8x8xi32>, memref<8xi32>)
// CHECK:           %[[L0:.+]] = tir.load %[[I0]][%[[VI]], %[[VJ]]] : memref<8x8xi32>
// CHECK-NEXT:      %[[X0:.+]] = arith.index_cast %[[L0]] : i32 to index
// CHECK-NEXT:      %[[L1:.+]] = tir.load %[[I1]][%[[VJ]]] : memref<8xi32>
// CHECK-NEXT:      %[[X1:.+]] = arith.index_cast %[[L1]] : i32 to index
// CHECK-NEXT:      %{{.+}} = tir.load %{{.+}}[%[[X0]], %[[X1]]] : memref<8x4xf32>
func.func @resize(%A: memref<8x4xf32>, %B: memref<8x8xf32>) {
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) reads(%A[%vi floordiv 2 + %vj floordiv 2, %vj floordiv 2] : memref<8x4xf32>) writes(%B[%vi, %vj] : memref<8x8xf32>) {
        %a = tir.load %A[%vi floordiv 2 + %vj floordiv 2, %vj floordiv 2] : memref<8x4xf32>
        tir.store %a, %B[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i0, %i1 = transform.tir.cache_index %b {storage_scope = "global"} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A value computation (float, of one variable) is cached in its own type;
// a variable whose domain starts at 2 gets a buffer of the domain's extent,
// indexed at `v - 2`; the ops computing it inline are gone.
// CHECK-LABEL: func.func @weights
// CHECK:         %[[W:index_var_0]] = tir.alloc_buffer : memref<6xf32>
// CHECK:         tir.for %[[AX:.+]] = 0 to 6 {
// CHECK-NEXT:      tir.block "index_0"(%[[V:.+]] = spatial(2 : 8, %[[AX]] + 2)) reads() writes(%[[W]][%[[V]] - 2] : memref<6xf32>) {
// CHECK:             arith.sitofp
// CHECK:             arith.mulf
// CHECK:             tir.store %{{.+}}, %[[W]][%[[V]] - 2] : memref<6xf32>
// CHECK:         tir.block "S"(%[[VI:.+]] = spatial(2 : 8, %{{.+}}))
// CHECK-NOT:       arith.sitofp
// CHECK:           %[[L:.+]] = tir.load %[[W]][%[[VI]] - 2] : memref<6xf32>
// CHECK-NEXT:      %[[P:.+]] = arith.mulf %{{.+}}, %[[L]] : f32
func.func @weights(%A: memref<8xf32>, %B: memref<8xf32>) {
  tir.for %i = 2 to 8 {
    tir.block "S"(%vi = spatial(2 : 8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      %x = arith.index_cast %vi : index to i64
      %f = arith.sitofp %x : i64 to f32
      %h = arith.constant 0.25 : f32
      %w = arith.mulf %f, %h : f32
      %p = arith.mulf %a, %w : f32
      tir.store %p, %B[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %w = transform.tir.cache_index %b {storage_scope = "global", cse_thresh = 1} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Nothing to cache (plain indices): the block stays as it is and the
// handle holds no stage.
// CHECK-LABEL: func.func @copy
// CHECK-NOT:     alloc_buffer
// CHECK:         tir.block "B"
func.func @copy(%A: memref<8xf32>, %B: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %none = transform.tir.cache_index %b {storage_scope = "global"} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
