// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

// A condition that holds on the whole domain: nothing to decompose.
func.func @f(%A: memref<6xf32>, %C: memref<10xf32>) {
  %P = tir.alloc_buffer : memref<10xf32>
  tir.for %i = 0 to 10 {
    // expected-note @below {{block}}
    tir.block "P"(%vi = spatial(10, %i)) {
      %c0 = arith.constant 0 : index
      %c10 = arith.constant 10 : index
      %lo = arith.cmpi sge, %vi, %c0 : index
      %hi = arith.cmpi slt, %vi, %c10 : index
      %in = arith.andi %lo, %hi : i1
      %v = scf.if %in -> (f32) {
        %a = tir.load %A[%vi - 2] : memref<6xf32>
        scf.yield %a : f32
      } else {
        %z = arith.constant 0.0 : f32
        scf.yield %z : f32
      }
      tir.store %v, %P[%vi] : memref<10xf32>
    }
  }
  tir.for %i = 0 to 10 {
    tir.block "C"(%vi = spatial(10, %i)) {
      %p = tir.load %P[%vi] : memref<10xf32>
      tir.store %p, %C[%vi] : memref<10xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "P" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{decompose_padding: block 'P' does not match the padding pattern `B[...] = if_then_else(in bounds, value, constant)`: the in-bound predicate is trivial}}
    %fill = transform.tir.decompose_padding %b at %l : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A condition joined by `or`: no box of in-bound points.
func.func @f(%A: memref<6xf32>, %C: memref<10xf32>) {
  %P = tir.alloc_buffer : memref<10xf32>
  tir.for %i = 0 to 10 {
    // expected-note @below {{block}}
    tir.block "P"(%vi = spatial(10, %i)) {
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %lo = arith.cmpi slt, %vi, %c2 : index
      %hi = arith.cmpi sge, %vi, %c8 : index
      %in = arith.ori %lo, %hi : i1
      %v = scf.if %in -> (f32) {
        %a = tir.load %A[%vi - 2] : memref<6xf32>
        scf.yield %a : f32
      } else {
        %z = arith.constant 0.0 : f32
        scf.yield %z : f32
      }
      tir.store %v, %P[%vi] : memref<10xf32>
    }
  }
  tir.for %i = 0 to 10 {
    tir.block "C"(%vi = spatial(10, %i)) {
      %p = tir.load %P[%vi] : memref<10xf32>
      tir.store %p, %C[%vi] : memref<10xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "P" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{decompose_padding: block 'P' does not match the padding pattern `B[...] = if_then_else(in bounds, value, constant)`: the condition is not comparisons of index expressions joined by `and`}}
    %fill = transform.tir.decompose_padding %b at %l : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A body that stores twice.
func.func @f(%A: memref<6xf32>, %C: memref<10xf32>) {
  %P = tir.alloc_buffer : memref<10xf32>
  tir.for %i = 0 to 10 {
    // expected-note @below {{block}}
    tir.block "P"(%vi = spatial(10, %i)) {
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %lo = arith.cmpi sge, %vi, %c2 : index
      %hi = arith.cmpi slt, %vi, %c8 : index
      %in = arith.andi %lo, %hi : i1
      %v = scf.if %in -> (f32) {
        %a = tir.load %A[%vi - 2] : memref<6xf32>
        scf.yield %a : f32
      } else {
        %z = arith.constant 0.0 : f32
        scf.yield %z : f32
      }
      tir.store %v, %P[%vi] : memref<10xf32>
      tir.store %v, %P[%vi] : memref<10xf32>
    }
  }
  tir.for %i = 0 to 10 {
    tir.block "C"(%vi = spatial(10, %i)) {
      %p = tir.load %P[%vi] : memref<10xf32>
      tir.store %p, %C[%vi] : memref<10xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "P" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.tir.get_loops %b : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{decompose_padding: block 'P' does not match the padding pattern `B[...] = if_then_else(in bounds, value, constant)`: its body stores more than once}}
    %fill = transform.tir.decompose_padding %b at %l : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The loop of another block.
func.func @f(%A: memref<6xf32>, %C: memref<10xf32>) {
  %P = tir.alloc_buffer : memref<10xf32>
  tir.for %i = 0 to 10 {
    tir.block "P"(%vi = spatial(10, %i)) {
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %lo = arith.cmpi sge, %vi, %c2 : index
      %hi = arith.cmpi slt, %vi, %c8 : index
      %in = arith.andi %lo, %hi : i1
      %v = scf.if %in -> (f32) {
        %a = tir.load %A[%vi - 2] : memref<6xf32>
        scf.yield %a : f32
      } else {
        %z = arith.constant 0.0 : f32
        scf.yield %z : f32
      }
      tir.store %v, %P[%vi] : memref<10xf32>
    }
  }
  // expected-note @below {{loop}}
  tir.for %i = 0 to 10 {
    tir.block "C"(%vi = spatial(10, %i)) {
      %p = tir.load %P[%vi] : memref<10xf32>
      tir.store %p, %C[%vi] : memref<10xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "P" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.get_block "C" in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.tir.get_loops %c : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{decompose_padding: loop 'i' must be a loop above block 'P' in its scope}}
    %fill = transform.tir.decompose_padding %b at %l : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A triangle (`vj <= vi`): the in-bound points are no box.
func.func @f(%A: memref<4x4xf32>, %C: memref<4x4xf32>) {
  %P = tir.alloc_buffer : memref<4x4xf32>
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 4 {
      // expected-note @below {{block}}
      tir.block "P"(%vi = spatial(4, %i), %vj = spatial(4, %j)) {
        %lo = arith.cmpi sle, %vj, %vi : index
        %v = scf.if %lo -> (f32) {
          %a = tir.load %A[%vi, %vj] : memref<4x4xf32>
          scf.yield %a : f32
        } else {
          %z = arith.constant 0.0 : f32
          scf.yield %z : f32
        }
        tir.store %v, %P[%vi, %vj] : memref<4x4xf32>
      }
    }
  }
  tir.for %i = 0 to 4 {
    tir.for %j = 0 to 4 {
      tir.block "C"(%vi = spatial(4, %i), %vj = spatial(4, %j)) {
        %p = tir.load %P[%vi, %vj] : memref<4x4xf32>
        tir.store %p, %C[%vi, %vj] : memref<4x4xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "P" in %root : (!transform.any_op) -> !transform.any_op
    %l:2 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{decompose_padding: block 'P' does not match the padding pattern `B[...] = if_then_else(in bounds, value, constant)`: the iteration variables are not independent of the padding condition (a comparison bounds no single binding)}}
    %fill = transform.tir.decompose_padding %b at %l#0 : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The padding block sits under a parallel loop that does not feed it: each
// thread would fill, then copy, the same elements, one thread's fill
// overwriting what another copied.
func.func @parallel_repeat(%A: memref<6xf32>, %C: memref<4x10xf32>) {
  %P = tir.alloc_buffer {tir.name = "P"} : memref<10xf32>
  tir.for %o = 0 to 4 parallel {
    tir.for %i = 0 to 10 {
      // expected-note @below {{block}}
      tir.block "P"(%vi = spatial(10, %i)) {
        %c2 = arith.constant 2 : index
        %c8 = arith.constant 8 : index
        %lo = arith.cmpi sge, %vi, %c2 : index
        %hi = arith.cmpi slt, %vi, %c8 : index
        %in = arith.andi %lo, %hi : i1
        %v = scf.if %in -> (f32) {
          %a = tir.load %A[%vi - 2] : memref<6xf32>
          scf.yield %a : f32
        } else {
          %z = arith.constant 0.0 : f32
          scf.yield %z : f32
        }
        tir.store %v, %P[%vi] : memref<10xf32>
      }
    }
    tir.for %j = 0 to 10 {
      tir.block "C"(%vo = spatial(4, %o), %vj = spatial(10, %j)) {
        %p = tir.load %P[%vj] : memref<10xf32>
        tir.store %p, %C[%vo, %vj] : memref<4x10xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "P" in %root : (!transform.any_op) -> !transform.any_op
    %o, %l = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{decompose_padding needs the threads of loop 'o' to write apart, but block 'P', which the loop does not feed, writes the same elements of 'P' in every iteration (a race between the threads)}}
    %fill = transform.tir.decompose_padding %b at %l : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}
