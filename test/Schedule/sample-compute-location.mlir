// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics | FileCheck %s

// sample_compute_location gives the place its decision names; compute_at
// takes it: a loop above the consumer (0: C's i), the root (-1: the block
// stays), or the inline place (-2: the block is inlined).

// CHECK-LABEL: func.func @at_loop
// CHECK:         tir.for %{{.*}} = 0 to 16 {
// CHECK-NEXT:      tir.for %{{.*}} = 0 to 64 {
// CHECK-NEXT:        tir.block "B"
// CHECK:           tir.for %{{.*}} = 0 to 64 {
// CHECK-NEXT:        tir.block "C"
func.func @at_loop(%A: memref<16x64xf32>, %C: memref<16x64xf32>) {
  %B = tir.alloc_buffer : memref<16x64xf32>
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 64 {
      tir.block "B"(%vi = spatial(16, %i), %vj = spatial(64, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<16x64xf32>
        tir.store %a, %B[%vi, %vj] : memref<16x64xf32>
      }
    }
  }
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 64 {
      tir.block "C"(%vi = spatial(16, %i), %vj = spatial(64, %j)) {
        %b = tir.load %B[%vi, %vj] : memref<16x64xf32>
        tir.store %b, %C[%vi, %vj] : memref<16x64xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.tir.sample_compute_location %b {decision = 0} : (!transform.any_op) -> !transform.any_op
    transform.tir.compute_at %b at %l : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// CHECK-LABEL: func.func @inlined
// CHECK-NOT:     tir.block "B"
// CHECK:         tir.block "C"
func.func @inlined(%A: memref<16x64xf32>, %C: memref<16x64xf32>) {
  %B = tir.alloc_buffer : memref<16x64xf32>
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 64 {
      tir.block "B"(%vi = spatial(16, %i), %vj = spatial(64, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<16x64xf32>
        tir.store %a, %B[%vi, %vj] : memref<16x64xf32>
      }
    }
  }
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 64 {
      tir.block "C"(%vi = spatial(16, %i), %vj = spatial(64, %j)) {
        %b = tir.load %B[%vi, %vj] : memref<16x64xf32>
        tir.store %b, %C[%vi, %vj] : memref<16x64xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.tir.sample_compute_location %b {decision = -2} : (!transform.any_op) -> !transform.any_op
    transform.tir.compute_at %b at %l : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// The root: nothing moves.
// CHECK-LABEL: func.func @root
// CHECK:         tir.for
// CHECK-NEXT:      tir.for
// CHECK-NEXT:        tir.block "B"
func.func @root(%A: memref<16x64xf32>, %C: memref<16x64xf32>) {
  %B = tir.alloc_buffer : memref<16x64xf32>
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 64 {
      tir.block "B"(%vi = spatial(16, %i), %vj = spatial(64, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<16x64xf32>
        tir.store %a, %B[%vi, %vj] : memref<16x64xf32>
      }
    }
  }
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 64 {
      tir.block "C"(%vi = spatial(16, %i), %vj = spatial(64, %j)) {
        %b = tir.load %B[%vi, %vj] : memref<16x64xf32>
        tir.store %b, %C[%vi, %vj] : memref<16x64xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.tir.sample_compute_location %b {decision = -1} : (!transform.any_op) -> !transform.any_op
    transform.tir.compute_at %b at %l : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

// A decision that is no longer a place (7) takes the nearest place before
// it (1: C's j), and compute_at follows the repaired place.
// CHECK-LABEL: func.func @repaired
// CHECK:         tir.for %{{.*}} = 0 to 16 {
// CHECK-NEXT:      tir.for %{{.*}} = 0 to 64 {
// CHECK-NEXT:        tir.block "B"
// CHECK:             tir.block "C"
func.func @repaired(%A: memref<16x64xf32>, %C: memref<16x64xf32>) {
  %B = tir.alloc_buffer : memref<16x64xf32>
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 64 {
      tir.block "B"(%vi = spatial(16, %i), %vj = spatial(64, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<16x64xf32>
        tir.store %a, %B[%vi, %vj] : memref<16x64xf32>
      }
    }
  }
  tir.for %i = 0 to 16 {
    tir.for %j = 0 to 64 {
      tir.block "C"(%vi = spatial(16, %i), %vj = spatial(64, %j)) {
        %b = tir.load %B[%vi, %vj] : memref<16x64xf32>
        tir.store %b, %C[%vi, %vj] : memref<16x64xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.tir.sample_compute_location %b {decision = 7} : (!transform.any_op) -> !transform.any_op
    transform.tir.compute_at %b at %l : !transform.any_op, !transform.any_op
    transform.yield
  }
}

// -----

func.func @no_decision(%A: memref<4xf32>) {
  tir.for %i = 0 to 4 {
    tir.block "B"(%vi = spatial(4, %i)) {
      %a = tir.load %A[%vi] : memref<4xf32>
      tir.store %a, %A[%vi] : memref<4xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{sample_compute_location needs a decision here: the transform interpreter has no random state to draw one from}}
    %l = transform.tir.sample_compute_location %b : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
