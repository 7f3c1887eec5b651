// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics | FileCheck %s

// The variables come in the new order with their kinds, domains and
// bindings; the init and the body read each at its new place.
// CHECK-LABEL: func.func @matmul
// CHECK:         tir.block "C"(%[[K:.*]] = reduce(8, %{{.*}}), %[[J:.*]] = spatial(4, %{{.*}}), %[[I:.*]] = spatial(2, %{{.*}}))
// CHECK:           tir.init
// CHECK:             tir.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
// CHECK:           tir.load %{{.*}}[%[[I]], %[[K]]]
func.func @matmul(%A: memref<2x8xf32>, %B: memref<8x4xf32>, %C: memref<2x4xf32>) {
  tir.for %i = 0 to 2 {
    tir.for %j = 0 to 4 {
      tir.for %k = 0 to 8 {
        tir.block "C"(%vi = spatial(2, %i), %vj = spatial(4, %j), %vk = reduce(8, %k)) {
          tir.init {
            %z = arith.constant 0.0 : f32
            tir.store %z, %C[%vi, %vj] : memref<2x4xf32>
          }
          %a = tir.load %A[%vi, %vk] : memref<2x8xf32>
          %b = tir.load %B[%vk, %vj] : memref<8x4xf32>
          %c = tir.load %C[%vi, %vj] : memref<2x4xf32>
          %m = arith.mulf %a, %b : f32
          %s = arith.addf %c, %m : f32
          tir.store %s, %C[%vi, %vj] : memref<2x4xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.reorder_block_iter_var %b {new_order = array<i64: 2, 1, 0>} : !transform.any_op
    transform.yield
  }
}

// -----

func.func @refused(%A: memref<2x4xf32>) {
  tir.for %i = 0 to 2 {
    tir.for %j = 0 to 4 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(2, %i), %vj = spatial(4, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<2x4xf32>
        tir.store %a, %A[%vi, %vj] : memref<2x4xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{reorder_block_iter_var of block 'B' needs each position once, but 0 is given twice}}
    transform.tir.reorder_block_iter_var %b {new_order = array<i64: 0, 0>} : !transform.any_op
    transform.yield
  }
}
