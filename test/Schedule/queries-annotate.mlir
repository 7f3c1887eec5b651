// RUN: tir-opt %s --transform-interpreter | FileCheck %s

// The list queries' results feed another primitive: each block they find
// gets an annotation (and only those blocks do).
// CHECK-LABEL: func.func @chain
// CHECK:         tir.block "Y"
// CHECK-SAME:      annotations {child_of_i = 1 : i64, producer = 1 : i64}
// CHECK:         tir.block "bias"
// CHECK-SAME:      annotations {consumer = 1 : i64}
// CHECK:         tir.block "relu"(%{{.*}} = spatial(8, %{{.*}})) {
func.func @chain(%A: memref<8x8xf32>, %D: memref<8x8xf32>) {
  %Y = tir.alloc_buffer : memref<8x8xf32>
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 8 {
      tir.block "Y"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %Y[%vi, %vi] : memref<8x8xf32>
        }
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %y = tir.load %Y[%vi, %vi] : memref<8x8xf32>
        %s = arith.addf %y, %a : f32
        tir.store %s, %Y[%vi, %vi] : memref<8x8xf32>
      }
    }
  }
  tir.for %i = 0 to 8 {
    tir.block "bias"(%vi = spatial(8, %i)) {
      %y = tir.load %Y[%vi, %vi] : memref<8x8xf32>
      tir.store %y, %D[%vi, %vi] : memref<8x8xf32>
    }
  }
  tir.for %i = 0 to 8 {
    tir.block "relu"(%vi = spatial(8, %i)) {
      %d = tir.load %D[%vi, %vi] : memref<8x8xf32>
      tir.store %d, %D[%vi, %vi] : memref<8x8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %y = transform.tir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    %bias = transform.tir.get_block "bias" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tir.get_loops %y : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %c = transform.tir.get_child_blocks %i : (!transform.any_op) -> !transform.any_op
    transform.tir.annotate "child_of_i" = 1 : i64 to %c : !transform.any_op
    %p = transform.tir.get_producers %bias : (!transform.any_op) -> !transform.any_op
    transform.tir.annotate "producer" = 1 : i64 to %p : !transform.any_op
    %q = transform.tir.get_consumers %y : (!transform.any_op) -> !transform.any_op
    transform.tir.annotate "consumer" = 1 : i64 to %q : !transform.any_op
    transform.yield
  }
}
