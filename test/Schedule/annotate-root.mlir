// RUN: tir-opt %s --transform-interpreter --split-input-file | FileCheck %s

// Annotating a function annotates TVM's root block, which the first
// annotation writes out around the body (allocations included); a sampled
// value (a parameter) is annotated as the integer it holds; get_block
// "root" and get_child_blocks see through the written-out block.
// CHECK-LABEL: func.func @root
// CHECK-NEXT:    tir.block "root"() reads() writes() annotations {meta_schedule.parallel = 16 : i64, meta_schedule.unroll_explicit = 64 : i64} {
// CHECK-NEXT:      tir.alloc_buffer
// CHECK:           tir.block "B"{{.*}} annotations {child = 1 : i64}
// CHECK:           tir.block "C"{{.*}} annotations {child = 1 : i64}
// CHECK:             tir.store
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  return
func.func @root(%A: memref<8xf32>, %C: memref<8xf32>) {
  %B = tir.alloc_buffer : memref<8xf32>
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %B[%vi] : memref<8xf32>
    }
  }
  tir.for %i = 0 to 8 {
    tir.block "C"(%vi = spatial(8, %i)) {
      %b = tir.load %B[%vi] : memref<8xf32>
      tir.store %b, %C[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.tir.get_block "root" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.annotate "meta_schedule.parallel" = 16 to %r : !transform.any_op
    %v = transform.tir.sample_categorical {candidates = array<i64: 0, 16, 64>, probs = array<f64: 0.25, 0.25, 0.5>, decision = 2} : () -> !transform.param<i64>
    transform.tir.annotate "meta_schedule.unroll_explicit" = %v to %r : !transform.any_op, !transform.param<i64>
    %again = transform.tir.get_block "root" in %root : (!transform.any_op) -> !transform.any_op
    %children = transform.tir.get_child_blocks %again : (!transform.any_op) -> !transform.any_op
    transform.tir.annotate "child" = 1 to %children : !transform.any_op
    transform.yield
  }
}

// -----

// Removing the root block's last annotation leaves the function its own
// root block again.
// CHECK-LABEL: func.func @unwrap
// CHECK-NEXT:    tir.for
// CHECK-NOT:     tir.block "root"
func.func @unwrap(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi] : memref<8xf32>
      tir.store %a, %A[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.tir.get_block "root" in %root : (!transform.any_op) -> !transform.any_op
    transform.tir.annotate "k" = "v" to %r : !transform.any_op
    transform.tir.unannotate %r "k" : !transform.any_op
    transform.yield
  }
}
