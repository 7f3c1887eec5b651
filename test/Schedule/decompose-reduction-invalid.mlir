// RUN: tir-opt %s --transform-interpreter --split-input-file --verify-diagnostics

// The loop is not above the block (TVM: LoopPositionError).
func.func @f(%A: memref<8x4xf32>, %S: memref<8xf32>, %T: memref<8xf32>) {
  // expected-note @below {{loop}}
  tir.for %x = 0 to 8 {
    tir.block "T"(%vx = spatial(8, %x)) {
      %zero = arith.constant 0.0 : f32
      tir.store %zero, %T[%vx] : memref<8xf32>
    }
  }
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 4 {
      tir.block "S"(%vi = spatial(8, %i), %vk = reduce(4, %k)) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = tir.load %S[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %t = transform.tir.get_block "T" in %root : (!transform.any_op) -> !transform.any_op
    %x = transform.tir.get_loops %t : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{decompose_reduction needs loop 'x' to be an ancestor of block 'S'}}
    %init = transform.tir.decompose_reduction %s at %x : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Not a reduction block: no init (TVM: NotReductionBlockError, #1).
func.func @f(%A: memref<8x4xf32>, %S: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 4 {
      // expected-note @below {{block}}
      tir.block "S"(%vi = spatial(8, %i), %vk = reduce(4, %k)) {
        %s = tir.load %S[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{decompose_reduction needs a reduction block, but block 'S' is not one: it has no tir.init}}
    %init = transform.tir.decompose_reduction %s at %i : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The loop is below a loop that feeds the reduce variable (TVM:
// LoopHeightError): k is outside j.
func.func @f(%A: memref<8x4xf32>, %S: memref<8xf32>) {
  // expected-note @below {{the loop that feeds the reduce variable}}
  tir.for %k = 0 to 4 {
    // expected-note @below {{loop}}
    tir.for %i = 0 to 8 {
      tir.block "S"(%vi = spatial(8, %i), %vk = reduce(4, %k)) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = tir.load %S[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %k, %i = transform.tir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{decompose_reduction needs loop 'i' to be higher than every loop that feeds a reduce variable of block 'S', but loop 'k' above it feeds 'vk'}}
    %init = transform.tir.decompose_reduction %s at %i : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The init uses a buffer the block allocates: out of scope in the init
// block (TVM would produce such IR).
func.func @f(%A: memref<8x4xf32>, %S: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 4 {
      tir.block "S"(%vi = spatial(8, %i), %vk = reduce(4, %k)) {
        %tmp = tir.alloc_buffer : memref<1xf32>
        tir.init {
          %c0 = arith.constant 0 : index
          // expected-note @below {{op}}
          %z = tir.load %tmp[%c0] : memref<1xf32>
          tir.store %z, %S[%vi] : memref<8xf32>
        }
        %s = tir.load %S[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{decompose_reduction needs an init that uses no buffer block 'S' allocates or matches}}
    %init = transform.tir.decompose_reduction %s at %i : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A loop between the given loop and the block feeds no iteration variable:
// each of its iterations restarts the reduction from the init (TVM hoists
// the init above it and the repetitions add up).
func.func @f(%A: memref<8x4xf32>, %S: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %r = 0 to 2 {
      tir.for %k = 0 to 4 {
        tir.block "S"(%vi = spatial(8, %i), %vk = reduce(4, %k)) {
          tir.init {
            %zero = arith.constant 0.0 : f32
            tir.store %zero, %S[%vi] : memref<8xf32>
          }
          %s = tir.load %S[%vi] : memref<8xf32>
          %a = tir.load %A[%vi, %vk] : memref<8x4xf32>
          %t = arith.addf %s, %a : f32
          tir.store %t, %S[%vi] : memref<8xf32>
        }
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %i, %r, %k = transform.tir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // expected-error @below {{decompose_reduction needs every loop between loop 'i' and block 'S' to feed an iteration variable, but loop 'r' feeds none}}
    %init = transform.tir.decompose_reduction %s at %i : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A predicate constraint relating a loop the init leaves out (k) to one it
// keeps (i): TVM drops it and the init writes rows the reduction skips.
func.func @f(%A: memref<8x4xf32>, %S: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 4 {
      // expected-note @below {{block}}
      tir.block "S"(%vi = spatial(8, %i), %vk = reduce(4, %k)) where(%i + %k < 6) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = tir.load %S[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{a constraint relates them to the loops the init keeps}}
    %init = transform.tir.decompose_reduction %s at %i : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A disjunction in the predicate over a loop the init leaves out (TVM:
// internal error on such a predicate).
func.func @f(%A: memref<8x4xf32>, %S: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 4 {
      // expected-note @below {{block}}
      tir.block "S"(%vi = spatial(8, %i), %vk = reduce(4, %k)) where(%k < 2 or %k >= 3) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = tir.load %S[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{a disjunction}}
    %init = transform.tir.decompose_reduction %s at %i : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A block under the loop reads the reduction's output before the
// reduction: it would see the init's zeros instead of what was there.
func.func @f(%A: memref<8x4xf32>, %S: memref<8xf32>, %O: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "R"(%vi = spatial(8, %i)) {
      %s = tir.load %S[%vi] : memref<8xf32>
      tir.store %s, %O[%vi] : memref<8xf32>
    }
    tir.for %k = 0 to 4 {
      tir.block "S"(%vi = spatial(8, %i), %vk = reduce(4, %k)) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = tir.load %S[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{but block 'R' comes before it}}
    %init = transform.tir.decompose_reduction %s at %i : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A block after the reduction reads an element the reduction reaches only
// in the next iteration.
func.func @f(%A: memref<9x4xf32>, %S: memref<9xf32>, %O: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 4 {
      tir.block "S"(%vi = spatial(9, %i), %vk = reduce(4, %k)) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %S[%vi] : memref<9xf32>
        }
        %s = tir.load %S[%vi] : memref<9xf32>
        %a = tir.load %A[%vi, %vk] : memref<9x4xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[%vi] : memref<9xf32>
      }
    }
    // expected-note @below {{block}}
    tir.block "R"(%vi = spatial(8, %i)) {
      %s = tir.load %S[%vi + 1] : memref<9xf32>
      tir.store %s, %O[%vi] : memref<8xf32>
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{but block 'R' reads more than it writes there}}
    %init = transform.tir.decompose_reduction %s at %i : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The init uses a reduce variable (through a value computed in the block):
// the init block has no such variable.
func.func @f(%A: memref<8x4xf32>, %S: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 4 {
      tir.block "S"(%vi = spatial(8, %i), %vk = reduce(4, %k)) {
        // expected-note @below {{op}}
        %first = affine.apply affine_map<(d0) -> (d0 * 2)>(%vk)
        tir.init {
          %a = tir.load %A[%vi, %first] : memref<8x4xf32>
          tir.store %a, %S[%vi] : memref<8xf32>
        }
        %s = tir.load %S[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{decompose_reduction needs an init that uses no reduce variable, but the init of block 'S' uses 'vk'}}
    %init = transform.tir.decompose_reduction %s at %i : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Iterations of a loop repeat the reduction at one point: f feeds the row
// (f floordiv 4) but its other part feeds nothing, so each row is reduced
// four times, each from its init (compute_at under a fused loop gives such
// nests); hoisted, the init would run once for all four.
func.func @f(%A: memref<8x4xf32>, %S: memref<8xf32>) {
  // expected-note @below {{loop}}
  tir.for %f = 0 to 32 {
    tir.for %k = 0 to 4 {
      tir.block "S"(%vi = spatial(8, %f floordiv 4), %vk = reduce(4, %k)) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = tir.load %S[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %f, %k = transform.tir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{decompose_reduction needs each iteration of the loops from loop 'f' down to block 'S' to run it at another point, but iterations of loop 'f' repeat one}}
    %init = transform.tir.decompose_reduction %s at %f : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A reduction bound backwards: the init runs where vk = 0, at the last
// iteration of k, discarding the other terms; hoisted, it would run first.
func.func @f(%A: memref<8x4xf32>, %S: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %k = 0 to 4 {
      tir.block "S"(%vi = spatial(8, %i), %vk = reduce(4, 3 - %k)) {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %S[%vi] : memref<8xf32>
        }
        %s = tir.load %S[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xf32>
        %t = arith.addf %s, %a : f32
        tir.store %t, %S[%vi] : memref<8xf32>
      }
    }
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.tir.get_block "S" in %root : (!transform.any_op) -> !transform.any_op
    %i, %k = transform.tir.get_loops %s : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{decompose_reduction needs the iterations from loop 'i' down to block 'S' to reach each point first where the reduce variables start their domains (where its init runs), but loop 'k' updates a point before that}}
    %init = transform.tir.decompose_reduction %s at %i : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}
