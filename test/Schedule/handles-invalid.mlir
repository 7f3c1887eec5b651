// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

// A loop that split replaced is gone: its handle is empty, and using it is
// an error rather than a silent no-op.
func.func @stale(%A: memref<16xf32>) {
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
    %i0, %i1 = transform.tir.split %i [4, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{expects a handle to tir.for ops, got an empty handle (split and fuse erase the loops they replace and empty their handles: use the loops they return)}}
    transform.tir.parallel %i : !transform.any_op
    transform.yield
  }
}

// -----

func.func @stale_split(%A: memref<16xf32>) {
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
    %i0, %i1 = transform.tir.split %i [4, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{expects a handle to one tir.for, got an empty handle}}
    %x, %y = transform.tir.split %i [2, 8] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// expected-note @below {{payload op}}
func.func @unit_on_func(%A: memref<16xf32>) {
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
    %f = transform.get_parent_op %b {op_name = "func.func"} : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{add_unit_loop applies to a tir.for or a tir.block, not 'func.func'}}
    %u = transform.tir.add_unit_loop %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @producers_of_loop(%A: memref<16xf32>) {
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
    // expected-error @below {{expects a handle to a tir.block}}
    %p = transform.tir.get_producers %i : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @empty_key(%A: memref<16xf32>) {
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
    // expected-error @below {{annotate needs a non-empty key}}
    transform.tir.annotate "" = 1 to %b : !transform.any_op
    transform.yield
  }
}

// -----

func.func @f(%A: memref<16xf32>) {
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{expects at least two factors}}
    %x = transform.tir.split %root [4] : (!transform.any_op) -> (!transform.any_op)
    transform.yield
  }
}

// -----

func.func @f(%A: memref<16xf32>) {
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{expects at least one loop}}
    %x = transform.tir.fuse : () -> (!transform.any_op)
    transform.yield
  }
}
