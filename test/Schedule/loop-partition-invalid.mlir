// RUN: tir-opt %s --transform-interpreter --split-input-file -verify-diagnostics
// Every refusal of loop_partition, in TVM's order (each leaves the IR as it was).

// Bounds known only at run time.
func.func @f(%A: memref<128xf32> {tir.name = "A"}, %n: index) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to %n {
    tir.block "B"(%vi = spatial(128, %i)) {
      %c = arith.constant 1.0 : f32
      tir.store %c, %A[%vi] : memref<128xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{loop_partition needs a loop with constant bounds, but loop 'i' has a bound known only at run time}}
    %p:2 = transform.tir.loop_partition %i [10, -1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Two inferred factors.
func.func @f(%A: memref<128xf32> {tir.name = "A"}, %n: index) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 128 {
    tir.block "B"(%vi = spatial(128, %i)) {
      %c = arith.constant 1.0 : f32
      tir.store %c, %A[%vi] : memref<128xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{loop_partition infers at most one factor, but factors 0 and 1 are both None}}
    %p:2 = transform.tir.loop_partition %i [-1, -1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A factor of 0.
func.func @f(%A: memref<128xf32> {tir.name = "A"}, %n: index) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 128 {
    tir.block "B"(%vi = spatial(128, %i)) {
      %c = arith.constant 1.0 : f32
      tir.store %c, %A[%vi] : memref<128xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{loop_partition needs positive factors, but factor 0 is 0}}
    %p:2 = transform.tir.loop_partition %i [0, -1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Factors that reach the extent (an empty last partition).
func.func @f(%A: memref<128xf32> {tir.name = "A"}, %n: index) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 128 {
    tir.block "B"(%vi = spatial(128, %i)) {
      %c = arith.constant 1.0 : f32
      tir.store %c, %A[%vi] : memref<128xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{loop_partition needs factors that sum to less than the extent 128 of loop 'i' (the last partition would be empty), but they sum to 128}}
    %p:3 = transform.tir.loop_partition %i [64, 64] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// An annotated loop.
func.func @f(%A: memref<128xf32> {tir.name = "A"}, %n: index) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 128 annotations {pragma_unroll = 1} {
    tir.block "B"(%vi = spatial(128, %i)) {
      %c = arith.constant 1.0 : f32
      tir.store %c, %A[%vi] : memref<128xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{loop_partition needs a loop without annotations or thread binding, but loop 'i' has annotations}}
    %p:2 = transform.tir.loop_partition %i [10, -1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A thread-bound loop.
func.func @f(%A: memref<128xf32> {tir.name = "A"}, %n: index) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 128 thread_binding<"threadIdx.x"> {
    tir.block "B"(%vi = spatial(128, %i)) {
      %c = arith.constant 1.0 : f32
      tir.store %c, %A[%vi] : memref<128xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{loop_partition needs a loop without annotations or thread binding, but loop 'i' has a thread binding}}
    %p:2 = transform.tir.loop_partition %i [10, -1] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
