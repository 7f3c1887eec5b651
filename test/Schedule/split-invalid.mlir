// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

func.func @nonzero_start(%A: memref<16xf32>) {
  // expected-note @below {{loop}}
  tir.for %i = 2 to 16 {
    tir.block "B"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi] : memref<16xf32>
      tir.store %a, %A[%vi] : memref<16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{split needs loops that start at 0; loop 'i' starts at 2}}
    %x, %y = transform.tir.split %i [?, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @dynamic_extent(%n: index, %A: memref<?xf32>) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to %n {
    tir.block "B"(%vi = spatial(%n, %i)) {
      %a = tir.load %A[%vi] : memref<?xf32>
      tir.store %a, %A[%vi] : memref<?xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{split cannot prove that the factors multiply to at least the extent of loop 'i' (The product of factors is not larger than or equal to the extent of loop tir.For#0, in TVM's words); leave one factor as None to infer it}}
    %x, %y = transform.tir.split %i [4, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @two_inferred(%A: memref<16xf32>) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 16 {
    tir.block "B"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi] : memref<16xf32>
      tir.store %a, %A[%vi] : memref<16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{split infers at most one factor; factors 0 and 2 are both left open}}
    %x, %y, %z = transform.tir.split %i [?, 2, ?] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @zero_factor(%A: memref<16xf32>) {
  tir.for %i = 0 to 16 {
    tir.block "B"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi] : memref<16xf32>
      tir.store %a, %A[%vi] : memref<16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{a constant split factor is positive, got 0}}
    %x, %y = transform.tir.split %i [4, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @too_small(%A: memref<16xf32>) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 16 {
    tir.block "B"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi] : memref<16xf32>
      tir.store %a, %A[%vi] : memref<16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{the split factors multiply to 12, less than the extent 16 of loop 'i'}}
    %x, %y = transform.tir.split %i [3, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @not_a_loop(%A: memref<16xf32>) {
  tir.for %i = 0 to 16 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi] : memref<16xf32>
      tir.store %a, %A[%vi] : memref<16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects a handle to a tir.for}}
    %x, %y = transform.tir.split %b [4, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @f(%A: memref<16xf32>) {
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{expects one result per factor: 2 factors, 1 results}}
    %x = transform.tir.split %root [4, 4] : (!transform.any_op) -> (!transform.any_op)
    transform.yield
  }
}

// -----

// TVM's rule: split and fuse leave annotated loops alone.
func.func @annotated(%A: memref<16xf32>) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 16 annotations {pragma = 1 : i64} {
    tir.block "B"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi] : memref<16xf32>
      tir.store %a, %A[%vi] : memref<16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{split needs loops without annotations; loop 'i' has some}}
    %x, %y = transform.tir.split %i [?, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The sentinel spelling of an inferred factor is not a factor.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{a constant split factor is positive, got -1}}
    %x, %y = transform.tir.split %i [-1, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Parameter factors take the parameter operands in order.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %p = transform.param.constant 4 : i64 -> !transform.param<i64>
    // expected-error @below {{expects parameter factors to take the parameter operands in order: factor #tir.split_factor<param 1> where param 0 comes next}}
    %x, %y = "transform.tir.split"(%i, %p) {factors = [#tir.split_factor<?>, #tir.split_factor<param 1>]} : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %p = transform.param.constant 4 : i64 -> !transform.param<i64>
    // expected-error @below {{has 1 parameter operands but 0 parameter factors}}
    %x, %y = "transform.tir.split"(%i, %p) {factors = [#tir.split_factor<?>, #tir.split_factor<4>]} : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A scalable factor is an affine map of vscale alone.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{a scalable split factor is an affine map '()[s0] -> (expr)' of vscale, got affine_map<(d0) -> (d0 * 4)>}}
    %x, %y = transform.tir.split %i [?, affine_map<(d0) -> (d0 * 4)>] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

func.func @param_not_positive(%A: memref<16xf32>) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 16 {
    tir.block "B"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi] : memref<16xf32>
      tir.store %a, %A[%vi] : memref<16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    %p = transform.param.constant 0 : i64 -> !transform.param<i64>
    // expected-error @below {{split factors must be positive, factor 1 is 0}}
    %x, %y = transform.tir.split %i [?, %p] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
