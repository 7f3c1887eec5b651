// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// A bias epilogue folds into the reduction: the init stores the bias, the
// update accumulates into D, the epilogue and its loops go; the reduction's
// own buffer stays allocated (unused), as in TVM.
// CHECK-LABEL: func.func @bias
// CHECK:         %[[T:.+]] = tir.alloc_buffer : memref<8x8xi32>
// CHECK:         tir.block "mm"(%[[VI:.+]] = spatial(8, %{{.+}}), %[[VJ:.+]] = spatial(8, %{{.+}}), %[[VK:.+]] = reduce(8, %{{.+}})) {
// CHECK-NEXT:      tir.init {
// CHECK-NEXT:        %[[C:.+]] = tir.load %{{.+}}[%[[VI]], %[[VJ]]] : memref<8x8xi32>
// CHECK-NEXT:        tir.store %[[C]], %[[D:.+]][%[[VI]], %[[VJ]]] : memref<8x8xi32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[ACC:.+]] = tir.load %[[D]][%[[VI]], %[[VJ]]] : memref<8x8xi32>
// CHECK:           %[[S:.+]] = arith.addi %[[ACC]], %{{.+}} : i32
// CHECK-NEXT:      tir.store %[[S]], %[[D]][%[[VI]], %[[VJ]]] : memref<8x8xi32>
// CHECK-NOT:     tir.block "bias"
// CHECK-NOT:     %[[T]]
// CHECK:         return
func.func @bias(%A: memref<8x8xi32>, %B: memref<8x8xi32>, %C: memref<8x8xi32>, %D: memref<8x8xi32>) {
  %T = tir.alloc_buffer : memref<8x8xi32>
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      tir.for %k = 0 to 8 {
        tir.block "mm"(%vi = spatial(8, %i), %vj = spatial(8, %j), %vk = reduce(8, %k)) {
          tir.init {
            %zero = arith.constant 0 : i32
            tir.store %zero, %T[%vi, %vj] : memref<8x8xi32>
          }
          %acc = tir.load %T[%vi, %vj] : memref<8x8xi32>
          %a = tir.load %A[%vi, %vk] : memref<8x8xi32>
          %b = tir.load %B[%vj, %vk] : memref<8x8xi32>
          %p = arith.muli %a, %b : i32
          %s = arith.addi %acc, %p : i32
          tir.store %s, %T[%vi, %vj] : memref<8x8xi32>
        }
      }
    }
  }
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      tir.block "bias"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %t = tir.load %T[%vi, %vj] : memref<8x8xi32>
        %c = tir.load %C[%vi, %vj] : memref<8x8xi32>
        %s = arith.addi %c, %t : i32
        tir.store %s, %D[%vi, %vj] : memref<8x8xi32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.tir.get_block "mm" in %root : (!transform.any_op) -> !transform.any_op
    %e = transform.tir.get_block "bias" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.fuse_reduction_epilogue %r, %e : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A non-zero init keeps its value: the init stores it plus the bias. The
// epilogue reads the transposed output, and the mapping follows it.
// CHECK-LABEL: func.func @init_plus_bias
// CHECK:         tir.block "sum"(%[[VI:.+]] = spatial(4, %{{.+}}), %[[VJ:.+]] = spatial(6, %{{.+}}), %{{.+}} = reduce(3, %{{.+}})) {
// CHECK-NEXT:      tir.init {
// CHECK-NEXT:        %[[ONE:.+]] = arith.constant 1.0
// CHECK-NEXT:        %[[C:.+]] = tir.load %{{.+}}[%[[VJ]]] : memref<6xf32>
// CHECK-NEXT:        %[[S:.+]] = arith.addf %[[ONE]], %[[C]] : f32
// CHECK-NEXT:        tir.store %[[S]], %[[D:.+]][%[[VJ]], %[[VI]]] : memref<6x4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      tir.load %[[D]][%[[VJ]], %[[VI]]] : memref<6x4xf32>
func.func @init_plus_bias(%A: memref<4x6x3xf32>, %C: memref<6xf32>, %D: memref<6x4xf32>) {
  %T = tir.alloc_buffer : memref<4x6xf32>
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 6 {
      tir.for %k = 0 to 3 {
        tir.block "sum"(%vi = spatial(4, %i), %vj = spatial(6, %j), %vk = reduce(3, %k)) {
          tir.init {
            %one = arith.constant 1.0 : f32
            tir.store %one, %T[%vi, %vj] : memref<4x6xf32>
          }
          %acc = tir.load %T[%vi, %vj] : memref<4x6xf32>
          %a = tir.load %A[%vi, %vj, %vk] : memref<4x6x3xf32>
          %s = arith.addf %acc, %a : f32
          tir.store %s, %T[%vi, %vj] : memref<4x6xf32>
        }
      }
    }
  }
  tir.for %j = 0 to 6 {
    tir.for %i = 0 to 4 {
      tir.block "bias"(%vj = spatial(6, %j), %vi = spatial(4, %i)) {
        %t = tir.load %T[%vi, %vj] : memref<4x6xf32>
        %c = tir.load %C[%vj] : memref<6xf32>
        %s = arith.addf %t, %c : f32
        tir.store %s, %D[%vj, %vi] : memref<6x4xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.tir.get_block "sum" in %root : (!transform.any_op) -> !transform.any_op
    %e = transform.tir.get_block "bias" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.fuse_reduction_epilogue %r, %e : !transform.any_op, !transform.any_op
    transform.yield
  }
}
