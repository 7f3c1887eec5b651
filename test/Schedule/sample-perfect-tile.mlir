// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics | FileCheck %s

// The decision is checked and returned as parameters, which the split takes
// as its factors.
// CHECK-LABEL: func.func @tiled
// CHECK:         tir.for %{{.*}} = 0 to 4 {
// CHECK-NEXT:      tir.for %{{.*}} = 0 to 8 {
func.func @tiled(%A: memref<32xf32>) {
  tir.for %i = 0 to 32 {
    tir.block "B"(%vi = spatial(32, %i)) {
      %a = tir.load %A[%vi] : memref<32xf32>
      tir.store %a, %A[%vi] : memref<32xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %f:2 = transform.tir.sample_perfect_tile %i {n = 2, decision = array<i64: 4, 8>} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
    %i0, %i1 = transform.tir.split %i [%f#0, %f#1] : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A decision that no longer divides the loop is repaired as TVM repairs it:
// the inner 4 divides 32, and the outer factor takes the 8 left.
// CHECK-LABEL: func.func @repaired
// CHECK:         tir.for %{{.*}} = 0 to 8 {
// CHECK-NEXT:      tir.for %{{.*}} = 0 to 4 {
func.func @repaired(%A: memref<32xf32>) {
  tir.for %i = 0 to 32 {
    tir.block "B"(%vi = spatial(32, %i)) {
      %a = tir.load %A[%vi] : memref<32xf32>
      tir.store %a, %A[%vi] : memref<32xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %f:2 = transform.tir.sample_perfect_tile %i {n = 2, decision = array<i64: 4, 4>} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
    %i0, %i1 = transform.tir.split %i [%f#0, %f#1] : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @no_decision(%A: memref<32xf32>) {
  tir.for %i = 0 to 32 {
    tir.block "B"(%vi = spatial(32, %i)) {
      %a = tir.load %A[%vi] : memref<32xf32>
      tir.store %a, %A[%vi] : memref<32xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{sample_perfect_tile needs a decision here: the transform interpreter has no random state to draw one from}}
    %f:2 = transform.tir.sample_perfect_tile %i {n = 2} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

// sample_categorical gives the candidate at its decision, which split takes;
// enter_postproc changes nothing.
// CHECK-LABEL: func.func @categorical
// CHECK:         tir.for %{{.*}} = 0 to 8 {
// CHECK-NEXT:      tir.for %{{.*}} = 0 to 4 {
func.func @categorical(%A: memref<32xf32>) {
  tir.for %i = 0 to 32 {
    tir.block "B"(%vi = spatial(32, %i)) {
      %a = tir.load %A[%vi] : memref<32xf32>
      tir.store %a, %A[%vi] : memref<32xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %v = transform.tir.sample_categorical {candidates = array<i64: 2, 4, 8>, probs = array<f64: 0.25, 0.25, 0.5>, decision = 1} : () -> !transform.param<i64>
    %i0, %i1 = transform.tir.split %i [?, %v] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.tir.enter_postproc : () -> ()
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{expects a decision in [0, 2), got 2}}
    %v = transform.tir.sample_categorical {candidates = array<i64: 2, 4>, probs = array<f64: 0.5, 0.5>, decision = 2} : () -> !transform.param<i64>
    transform.yield
  }
}

// -----

func.func @f(%A: memref<32xf32>) {
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{expects a decision of n = 3 factors}}
    %f:2 = transform.tir.sample_perfect_tile %root {n = 3, decision = array<i64: 4, 8>} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}
