// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics -o /dev/null

func.func @matmul(%A: memref<16x16xf32>, %B: memref<16x16xf32>, %C: memref<16x16xf32>) {
  // expected-remark @below {{loop i}}
  // expected-remark @below {{all loops}}
  tir.for %i = 0 to 16 {
    // expected-remark @below {{loop j}}
    // expected-remark @below {{all loops}}
    tir.for %j = 0 to 16 {
      // expected-remark @below {{loop k}}
      // expected-remark @below {{all loops}}
      tir.for %k = 0 to 16 {
        // expected-remark @below {{found C}}
        tir.block "C"(%vi = spatial(16, %i), %vj = spatial(16, %j), %vk = reduce(16, %k)) {
          %a = tir.load %A[%vi, %vk] : memref<16x16xf32>
          %b = tir.load %B[%vk, %vj] : memref<16x16xf32>
          %c = tir.load %C[%vi, %vj] : memref<16x16xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %c, %p : f32
          tir.store %s, %C[%vi, %vj] : memref<16x16xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %b, "found C" : !transform.any_op
    %i, %j, %k = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.debug.emit_remark_at %i, "loop i" : !transform.any_op
    transform.debug.emit_remark_at %j, "loop j" : !transform.any_op
    transform.debug.emit_remark_at %k, "loop k" : !transform.any_op
    %all = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %all, "all loops" : !transform.any_op
    transform.yield
  }
}

// -----

// get_loops stops at the enclosing block (the block's scope).
func.func @scoped(%A: memref<8x8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "outer"(%vo = spatial(8, %i)) {
      // expected-remark @below {{inner loop}}
      tir.for %j = 0 to 8 {
        tir.block "inner"(%vi = spatial(8, %vo), %vj = spatial(8, %j)) {
          %c = arith.constant 0.0 : f32
          tir.store %c, %A[%vi, %vj] : memref<8x8xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "inner" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %l, "inner loop" : !transform.any_op
    transform.yield
  }
}

// -----

func.func @f(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{Cannot find a block with the name: missing}}
    %b = transform.tir.get_block "missing" in %root : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @f(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{in function 'f'}}
    tir.block "B"(%vi = spatial(8, %i)) {
    }
  }
  return
}

func.func @g(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{in function 'g'}}
    tir.block "B"(%vi = spatial(8, %i)) {
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{block name 'B' is ambiguous: 2 blocks have it}}
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Two blocks of one function share a name (TensorIR allows it): get_block
// names both candidates.
func.func @h(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{in function 'h'}}
    tir.block "B"(%vi = spatial(8, %i)) {
    }
  }
  tir.for %i = 0 to 8 {
    // expected-note @below {{in function 'h'}}
    tir.block "B"(%vi = spatial(8, %i)) {
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // expected-error @below {{block name 'B' is ambiguous: 2 blocks have it}}
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @f(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "B"(%vi = spatial(8, %i)) {
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{asks for one handle per loop: 2 handles, but there is 1}}
    %i, %j = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// expected-note @below {{payload op}}
func.func @f(%A: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.block "B"(%vi = spatial(8, %i)) {
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.get_parent_op %b {op_name = "func.func"} : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects a handle to a tir.block}}
    %l = transform.tir.get_loops %f : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// get_block "root" is TVM's root block: the function. get_output_blocks
// under it: the blocks writing a buffer their scope does not allocate (C,
// not the stage into Y).
func.func @two_stages(%A: memref<16xf32>, %C: memref<16xf32>) {
  %Y = tir.alloc_buffer : memref<16xf32>
  tir.for %i = 0 to 16 {
    tir.block "Y"(%vi = spatial(16, %i)) {
      %a = tir.load %A[%vi] : memref<16xf32>
      tir.store %a, %Y[%vi] : memref<16xf32>
    }
  }
  tir.for %i = 0 to 16 {
    // expected-remark @below {{output}}
    tir.block "C"(%vi = spatial(16, %i)) {
      %y = tir.load %Y[%vi] : memref<16xf32>
      tir.store %y, %C[%vi] : memref<16xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.tir.get_block "root" in %root : (!transform.any_op) -> !transform.any_op
    %out = transform.tir.get_output_blocks %r : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %out, "output" : !transform.any_op
    transform.yield
  }
}
