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
    %p:2 = transform.tir.loop_partition %i [10, ?] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
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
    %p:2 = transform.tir.loop_partition %i [?, ?] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
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
    // A constant factor is positive by its type (#tir.split_factor); a
    // parameter's integer is checked when the op applies.
    %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
    // expected-error @below {{loop_partition needs positive factors, but factor 0 is 0}}
    %p:2 = transform.tir.loop_partition %i [%zero, ?] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
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
    %p:2 = transform.tir.loop_partition %i [10, ?] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
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
    %p:2 = transform.tir.loop_partition %i [10, ?] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A reduction fed by a loop above this one: the partitions
// would cut one reduction's nest (TVM does, and rfactor of a partition then
// computes a wrong result).
func.func @split_reduction(%A: memref<8x8xf32> {tir.name = "A"}, %S: memref<1xf32> {tir.name = "S"}) {
  tir.for %r = 0 to 8 {
    tir.for %c = 0 to 8 {
      // expected-note @below {{block}}
      tir.block "S"(%vr = reduce(8, %r), %vc = reduce(8, %c)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %S[0] : memref<1xf32>
        }
        %s = tir.load %S[0] : memref<1xf32>
        %a = tir.load %A[%vr, %vc] : memref<8x8xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[0] : memref<1xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %r, %c = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{loop_partition cannot cut loop 'c': block 'S' reduces over loops above it, and the partitions would cut that reduction's nest}}
    %p:2 = transform.tir.loop_partition %c [3, ?] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A reduce variable fed through a compound binding (a fused loop).
func.func @fused_reduction(%A: memref<4x8xf32> {tir.name = "A"}, %S: memref<4xf32> {tir.name = "S"}) {
  tir.for %f = 0 to 32 {
    // expected-note @below {{block}}
    tir.block "S"(%vi = spatial(4, %f floordiv 8), %vk = reduce(8, %f mod 8)) {
      tir.init {
        %z = arith.constant 0.0 : f32
        tir.store %z, %S[%vi] : memref<4xf32>
      }
      %s = tir.load %S[%vi] : memref<4xf32>
      %a = tir.load %A[%vi, %vk] : memref<4x8xf32>
      %t = arith.addf %s, %a : f32
      tir.store %t, %S[%vi] : memref<4xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{loop_partition cannot cut loop 'f', which feeds reduce variable 'vk' of block 'S' (which has an init) through a compound binding}}
    %p:2 = transform.tir.loop_partition %f [12, ?] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
