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

func.func @wrong_product(%A: memref<32xf32>) {
  // expected-note @below {{loop}}
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
    // expected-error @below {{sample_perfect_tile: decision [4, 4] is not 2 factors of the extent 32 with the innermost at most 16}}
    %f:2 = transform.tir.sample_perfect_tile %i {n = 2, decision = array<i64: 4, 4>} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
    transform.yield
  }
}

// -----

func.func @innermost_too_big(%A: memref<32xf32>) {
  // expected-note @below {{loop}}
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
    // expected-error @below {{is not 2 factors of the extent 32 with the innermost at most 8}}
    %f:2 = transform.tir.sample_perfect_tile %i {n = 2, max_innermost_factor = 8, decision = array<i64: 2, 16>} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
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
