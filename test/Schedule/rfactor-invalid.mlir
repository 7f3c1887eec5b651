// RUN: tir-opt %s --transform-interpreter --split-input-file -verify-diagnostics
// Every refusal of rfactor (each leaves the IR as it was).

// The loop holds two blocks.
func.func @two_blocks(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}, %E: memref<8xf32> {tir.name = "E"}) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %B[%vi] : memref<8xf32>
        }
        %b = tir.load %B[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %b, %a : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
      tir.block "E"(%vi = spatial(8, %i)) {
        %z = arith.constant 1.0 : f32
        tir.store %z, %E[%vi] : memref<8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
          // expected-error @below {{rfactor needs loop 'i' to hold exactly one block, but it holds 2}}
    %rf = transform.tir.rfactor %l0 {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// Not a reduction block: element-wise.
func.func @elementwise(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8x8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 8 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(8, %i), %vk = spatial(8, %k)) {
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        tir.store %a, %B[%vi, %vk] : memref<8x8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
          // expected-error @below {{rfactor needs a reduction block, but block 'B' is not one: it has no tir.init}}
    %rf = transform.tir.rfactor %l1 {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A parallel loop.
func.func @parallel(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %k = 0 to 8 parallel {
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %B[%vi] : memref<8xf32>
        }
        %b = tir.load %B[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %b, %a : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
          // expected-error @below {{rfactor needs a serial loop, but loop 'k' is parallel}}
    %rf = transform.tir.rfactor %l1 {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A loop that feeds a spatial variable.
func.func @spatial_loop(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %B[%vi] : memref<8xf32>
        }
        %b = tir.load %B[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %b, %a : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
          // expected-error @below {{rfactor needs a loop that feeds only reduce variables, but loop 'i' feeds a spatial variable of block 'B'}}
    %rf = transform.tir.rfactor %l0 {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A loop above the block feeding both kinds of variables.
func.func @both_kinds(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
  // expected-note @below {{loop}}
  tir.for %f = 0 to 64 {
    tir.for %u = 0 to 1 {
      tir.block "B"(%vi = spatial(8, %f floordiv 8), %vk = reduce(8, %f mod 8)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %B[%vi] : memref<8xf32>
        }
        %b = tir.load %B[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %b, %a : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
          // expected-error @below {{rfactor needs every loop above block 'B' to feed spatial or reduce variables, not both, but loop 'f' feeds both}}
    %rf = transform.tir.rfactor %l0 {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An unbound loop of extent above 1 under a reduction loop.
func.func @unbound(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %r = 0 to 2 {
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %B[%vi] : memref<8xf32>
        }
        %b = tir.load %B[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %b, %a : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1, %l2 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
          // expected-error @below {{rfactor needs every loop under a reduction loop to feed a variable of block 'B' or to run once, but loop 'r' does neither}}
    %rf = transform.tir.rfactor %l1 {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// No reducer: a sum initialized to 1.
func.func @init_one(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 8 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
          %z = arith.constant 1.0 : f32
          tir.store %z, %B[%vi] : memref<8xf32>
        }
        %b = tir.load %B[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %b, %a : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
          // expected-error @below {{rfactor needs block 'B' to be a reduction by a commutative reducer, but no reducer matches its identities and combination (the reducers: sum, product, min, max, and, or, xor of one buffer; pair sum, argmax and argmin of two, each with its identity as the init)}}
    %rf = transform.tir.rfactor %l1 {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// No reducer: a subtraction.
func.func @subtract(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 8 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %B[%vi] : memref<8xf32>
        }
        %b = tir.load %B[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.subf %b, %a : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
          // expected-error @below {{rfactor needs block 'B' to be a reduction by a commutative reducer, but no reducer matches its identities and combination (the reducers: sum, product, min, max, and, or, xor of one buffer; pair sum, argmax and argmin of two, each with its identity as the init)}}
    %rf = transform.tir.rfactor %l1 {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// An init that stores a loaded value.
func.func @init_load(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
               // expected-note @below {{payload op}}
          %z = tir.load %A[%vi, 0] : memref<8x8xf32>
          tir.store %z, %B[%vi] : memref<8xf32>
        }
        %b = tir.load %B[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %b, %a : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
          // expected-error @below {{rfactor needs block 'B' to be a reduction by a commutative reducer, but its init holds more than stores of constants (TVM: condition #1)}}
    %rf = transform.tir.rfactor %l1 {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// factor_axis out of range.
func.func @axis(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 8 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %B[%vi] : memref<8xf32>
        }
        %b = tir.load %B[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %b, %a : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
          // expected-error @below {{rfactor needs factor_axis in [-2, 1] for buffer 'B' of 1 dimension(s), but it is 2}}
    %rf = transform.tir.rfactor %l1 {factor_axis = 2} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A predicate.
func.func @predicate(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 9 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %k)) where(%k < 8) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %B[%vi] : memref<8xf32>
        }
        %b = tir.load %B[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %b, %a : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
          // expected-error @below {{rfactor does not support the predicate of block 'B' (as TVM, whose test of it expects a refusal): the write-back block runs every partial result, whether or not the predicate let the rfactor block initialize it}}
    %rf = transform.tir.rfactor %l1 {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A loop that does not start at 0.
func.func @start(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %k = 1 to 9 {
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %k - 1)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %B[%vi] : memref<8xf32>
        }
        %b = tir.load %B[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %b, %a : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
          // expected-error @below {{rfactor needs loops that start at 0; loop 'k' starts at 1}}
    %rf = transform.tir.rfactor %l1 {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// New values that read the reduction buffer.
func.func @reads_output(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 8 {
      // expected-note @below {{block}}
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %B[%vi] : memref<8xf32>
        }
        %b = tir.load %B[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %b2 = tir.load %B[%vi] : memref<8xf32>
        %p = arith.mulf %a, %b2 : f32
        %s = arith.addf %b, %p : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
          // expected-error @below {{rfactor needs block 'B' to be a reduction by a commutative reducer, but the new values it combines with the sum reducer read the buffers it reduces into}}
    %rf = transform.tir.rfactor %l1 {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A write-after-read dependence in the scope (not a stage pipeline).
func.func @war(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}, %C: memref<8xf32> {tir.name = "C"}) {
  tir.for %j = 0 to 8 {
    tir.block "R"(%vj = spatial(8, %j)) {
      %x = tir.load %A[%vj, 0] : memref<8x8xf32>
      tir.store %x, %C[%vj] : memref<8xf32>
    }
  }
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %B[%vi] : memref<8xf32>
        }
        %b = tir.load %B[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %b, %a : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
  }
  tir.for %j = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "W"(%vj = spatial(8, %j)) {
      %z = arith.constant 0.0 : f32
      tir.store %z, %A[%vj, 0] : memref<8x8xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
          // expected-error @below {{rfactor needs a scope that is a stage pipeline (TVM: no write-after-read dependence), but block 'W' writes a buffer that block 'R' before it reads}}
    %rf = transform.tir.rfactor %l1 {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A later block reads more than the reduction writes (no region cover).
func.func @cover(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}, %D: memref<8xf32> {tir.name = "D"}) {
  tir.for %i = 0 to 4 {
    tir.for %k = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %B[%vi] : memref<8xf32>
        }
        %b = tir.load %B[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %b, %a : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
  }
  tir.for %j = 0 to 8 {
    // expected-note @below {{block}}
    tir.block "D"(%vj = spatial(8, %j)) {
      %x = tir.load %B[%vj] : memref<8xf32>
      tir.store %x, %D[%vj] : memref<8xf32>
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
          // expected-error @below {{rfactor needs a scope that is a stage pipeline (TVM: each block reads only what the blocks before it write), but block 'D' reads elements of 'B' that block 'B' (or the other writers) may not write}}
    %rf = transform.tir.rfactor %l1 {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The block is not the first under the outermost loop above it.
func.func @not_first(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}, %E: memref<8xf32> {tir.name = "E"}) {
  // expected-note @below {{loop}}
  tir.for %i = 0 to 8 {
    tir.block "E"(%ve = spatial(8, %i)) {
      %z = arith.constant 1.0 : f32
      tir.store %z, %E[%ve] : memref<8xf32>
    }
    tir.for %k = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %B[%vi] : memref<8xf32>
        }
        %b = tir.load %B[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %b, %a : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
          // expected-error @below {{rfactor needs block 'B' to be the first block under the outermost loop 'i' above it (TVM: the reduction block should be the first child block of the outermost loop outside of it)}}
    %rf = transform.tir.rfactor %l1 {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The outermost reduction loop holds another block.
func.func @outer_reduction(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}, %E: memref<8x2xf32> {tir.name = "E"}) {
  tir.for %i = 0 to 8 {
    // expected-note @below {{loop}}
    tir.for %ko = 0 to 2 {
    tir.for %ki = 0 to 4 {
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %ko * 4 + %ki)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %B[%vi] : memref<8xf32>
        }
        %b = tir.load %B[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %b, %a : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
    tir.block "E"(%ve = spatial(8, %i), %vo = spatial(2, %ko)) {
      %z = arith.constant 1.0 : f32
      tir.store %z, %E[%ve, %vo] : memref<8x2xf32>
    }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1, %l2 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
          // expected-error @below {{rfactor needs the outermost loop that feeds a reduce variable of block 'B' to hold only that block, but 'ko' holds others}}
    %rf = transform.tir.rfactor %l2 {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A load after the first store (a value not computed from the values before the update).
func.func @load_after_store(%A: memref<8x8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}, %C: memref<8xf32> {tir.name = "C"}) {
  tir.for %i = 0 to 8 {
    tir.for %k = 0 to 8 {
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(8, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %B[%vi] : memref<8xf32>
        }

        %b = tir.load %B[%vi] : memref<8xf32>
        tir.store %b, %B[%vi] : memref<8xf32>
              // expected-note @below {{payload op}}
        %b2 = tir.load %B[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x8xf32>
        %s = arith.addf %b2, %a : f32
        tir.store %s, %C[%vi] : memref<8xf32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %l0, %l1 = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
          // expected-error @below {{rfactor needs block 'B' to be a reduction by a commutative reducer, but it loads a value after its first store: the values it stores are not all computed from the values before the update (TVM: condition #3, its LetStmts)}}
    %rf = transform.tir.rfactor %l1 {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The rfactor loop feeds no variable: each of its iterations would repeat
// the whole reduction, and the write-back would add the repetitions up.
func.func @feeds_nothing(%A: memref<8xf32> {tir.name = "A"}, %B: memref<f32> {tir.name = "B"}) {
  // expected-note @below {{loop}}
  tir.for %u = 0 to 2 {
    tir.for %k = 0 to 8 {
      tir.block "B"(%vk = reduce(8, %k)) {
        tir.init {
          %z = arith.constant 0.0 : f32
          tir.store %z, %B[] : memref<f32>
        }
        %b = tir.load %B[] : memref<f32>
        %a = tir.load %A[%vk] : memref<8xf32>
        %s = arith.addf %b, %a : f32
        tir.store %s, %B[] : memref<f32>
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %u, %k = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // expected-error @below {{rfactor needs a loop that feeds a reduce variable of block 'B' (or runs once), but loop 'u' feeds none}}
    %rf = transform.tir.rfactor %u {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// A binding computed between the loops: the rfactor nest's copies of the
// loops could not use it.
func.func @computed_binding(%A: memref<8x128xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
  tir.for %i = 0 to 8 {
    tir.for %ko = 0 to 4 {
      tir.for %ki = 0 to 32 {
        %t = affine.apply affine_map<(d0, d1) -> (d0 * 32 + d1)>(%ko, %ki)
        // expected-note @below {{block}}
        tir.block "B"(%vi = spatial(8, %i), %vk = reduce(128, %t)) {
          tir.init {
            %z = arith.constant 0.0 : f32
            tir.store %z, %B[%vi] : memref<8xf32>
          }
          %b = tir.load %B[%vi] : memref<8xf32>
          %a = tir.load %A[%vi, %vk] : memref<8x128xf32>
          %s = arith.addf %b, %a : f32
          tir.store %s, %B[%vi] : memref<8xf32>
        }
      }
    }
  }
  return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "B" in %root : (!transform.any_op) -> !transform.any_op
    %i, %ko, %ki = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // expected-error @below {{rfactor needs the bindings of block 'B' to be its loops or values from outside them, but one is computed between the loops}}
    %rf = transform.tir.rfactor %ki {factor_axis = 0} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
