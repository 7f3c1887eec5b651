// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

func.func @not_perfect(%A: memref<8x8xf32>) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 8 {
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
    tir.block "D"(%vi = spatial(8, %i)) {
      %a = tir.load %A[%vi, %vi] : memref<8x8xf32>
      tir.store %a, %A[%vi, %vi] : memref<8x8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{fuse needs perfectly nested loops: loop 'j' is not the only statement in the body of loop 'i'}}
    %f = transform.tir.fuse %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @wrong_order(%A: memref<8x8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{fuse needs perfectly nested loops: loop 'i' is not the only statement in the body of loop 'j'}}
    %f = transform.tir.fuse %j, %i : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @twice(%A: memref<8xf32>) {
  // expected-note @below {{loop}}
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
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{fuse got loop 'i' twice}}
    %f = transform.tir.fuse %i, %i : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @nonzero(%A: memref<8x8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %j = 1 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{fuse needs loops that start at 0; loop 'j' starts at 1}}
    %f = transform.tir.fuse %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// TVM's DependentLoopError: the extent of j is the variable of i.
func.func @dependent_extent(%A: memref<8x8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %j = 0 to %i {
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{fuse cannot fuse loop 'j': its extent depends on the variable of an outer loop being fused}}
    %f = transform.tir.fuse %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A value computed between the loops from the outer variable.
func.func @dependent_value(%A: memref<8x8xf32>) {
  tir.for %i = 0 to 8 {
    %e = arith.addi %i, %i : index
    // expected-note @below {{loop}}
    tir.for %j = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<8x8xf32>
        tir.store %a, %A[%vi, %vj] : memref<8x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{fuse cannot fuse loop 'j': a value computed before it depends on the variable of an outer loop being fused}}
    %f = transform.tir.fuse %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// TVM's rule: split and fuse leave thread-bound loops alone.
func.func @thread_bound(%A: memref<4x8xf32>) {
  tir.for %i = 0 to 4 {
    // expected-note @below {{loop}}
    tir.for %j = 0 to 8 thread_binding<"threadIdx.x"> {
      tir.block "B"(%vi = spatial(4, %i), %vj = spatial(8, %j)) {
        %a = tir.load %A[%vi, %vj] : memref<4x8xf32>
        tir.store %a, %A[%vi, %vj] : memref<4x8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{fuse needs loops not bound to threads; loop 'j' is bound to 'threadIdx.x'}}
    %f = transform.tir.fuse %i, %j : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}
