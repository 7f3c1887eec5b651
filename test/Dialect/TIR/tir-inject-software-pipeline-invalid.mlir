// RUN: tir-opt %s --tir-inject-software-pipeline --split-input-file -verify-diagnostics

// Every pipeline the pass refuses, with the rule it breaks.

func.func @no_order(%A: memref<16xf32>, %B: memref<16xf32>) {
  // expected-error @+1 {{loop 'k' cannot be software-pipelined: it has 'software_pipeline_stage' but no 'software_pipeline_order' (a pipeline needs both)}}
  tir.for %k = 0 to 4 annotations {software_pipeline_stage = [0, 1]} {
    tir.for %x = 0 to 4 {
      tir.block "load"(%v = spatial(16, %k * 4 + %x)) {
        %0 = tir.load %A[%v] : memref<16xf32>
        tir.store %0, %B[%v] : memref<16xf32>
      }
    }
  }
  return
}

// -----

func.func @no_stage(%A: memref<16xf32>, %B: memref<16xf32>) {
  // expected-error @+1 {{it has 'software_pipeline_order' but no 'software_pipeline_stage'}}
  tir.for %k = 0 to 4 annotations {software_pipeline_order = [0]} {
    tir.for %x = 0 to 4 {
      tir.block "load"(%v = spatial(16, %k * 4 + %x)) {
        %0 = tir.load %A[%v] : memref<16xf32>
        tir.store %0, %B[%v] : memref<16xf32>
      }
    }
  }
  return
}

// -----

func.func @wrong_length(%A: memref<16xf32>, %B: memref<16xf32>) {
  // expected-error @+1 {{'software_pipeline_stage' has 2 entries, but the loop's body has 1 statements, one entry each: 'load'}}
  tir.for %k = 0 to 4 annotations {software_pipeline_order = [0, 1], software_pipeline_stage = [0, 1]} {
    tir.for %x = 0 to 4 {
      tir.block "load"(%v = spatial(16, %k * 4 + %x)) {
        %0 = tir.load %A[%v] : memref<16xf32>
        tir.store %0, %B[%v] : memref<16xf32>
      }
    }
  }
  return
}

// -----

// An asynchronous stage no statement has.
func.func @async_stage_missing(%A: memref<16xf32>, %B: memref<16xf32>) {
  // expected-error @+1 {{'software_pipeline_async_stages' names stage 1, which no statement has (stages: [0])}}
  tir.for %k = 0 to 4 annotations {software_pipeline_async_stages = [1], software_pipeline_order = [0], software_pipeline_stage = [0]} {
    tir.for %x = 0 to 4 {
      tir.block "load"(%v = spatial(16, %k * 4 + %x)) {
        %0 = tir.load %A[%v] : memref<16xf32>
        tir.store %0, %B[%v] : memref<16xf32>
      }
    }
  }
  return
}

// -----

func.func @not_integers(%A: memref<16xf32>, %B: memref<16xf32>) {
  // expected-error @+1 {{'software_pipeline_stage' is "0", not a list of integers}}
  tir.for %k = 0 to 4 annotations {software_pipeline_order = [0], software_pipeline_stage = "0"} {
    tir.for %x = 0 to 4 {
      tir.block "load"(%v = spatial(16, %k * 4 + %x)) {
        %0 = tir.load %A[%v] : memref<16xf32>
        tir.store %0, %B[%v] : memref<16xf32>
      }
    }
  }
  return
}

// -----

func.func @negative_stage(%A: memref<16xf32>, %B: memref<16xf32>) {
  // expected-error @+1 {{stage -1 of statement 0 is negative}}
  tir.for %k = 0 to 4 annotations {software_pipeline_order = [0], software_pipeline_stage = [-1]} {
    tir.for %x = 0 to 4 {
      tir.block "load"(%v = spatial(16, %k * 4 + %x)) {
        %0 = tir.load %A[%v] : memref<16xf32>
        tir.store %0, %B[%v] : memref<16xf32>
      }
    }
  }
  return
}

// -----

func.func @repeated_order(%A: memref<16xf32>, %B: memref<16xf32>, %C: memref<16xf32>) {
  // expected-error @+1 {{'software_pipeline_order' must hold 0 to 1, each once (statement 1 has order 0)}}
  tir.for %k = 0 to 4 annotations {software_pipeline_order = [0, 0], software_pipeline_stage = [0, 1]} {
    tir.for %x = 0 to 4 {
      tir.block "load"(%v = spatial(16, %k * 4 + %x)) {
        %0 = tir.load %A[%v] : memref<16xf32>
        tir.store %0, %B[%v] : memref<16xf32>
      }
    }
    tir.for %x = 0 to 4 {
      tir.block "use"(%v = spatial(16, %k * 4 + %x)) {
        %0 = tir.load %B[%v] : memref<16xf32>
        tir.store %0, %C[%v] : memref<16xf32>
      }
    }
  }
  return
}

// -----

func.func @parallel(%A: memref<16xf32>, %B: memref<16xf32>) {
  // expected-error @+1 {{its iterations run at once ('parallel'): a pipeline overlaps consecutive iterations of a serial or unrolled loop}}
  tir.for %k = 0 to 4 parallel annotations {software_pipeline_order = [0], software_pipeline_stage = [0]} {
    tir.for %x = 0 to 4 {
      tir.block "load"(%v = spatial(16, %k * 4 + %x)) {
        %0 = tir.load %A[%v] : memref<16xf32>
        tir.store %0, %B[%v] : memref<16xf32>
      }
    }
  }
  return
}

// -----

func.func @runtime_bounds(%A: memref<?xf32>, %B: memref<?xf32>, %n: index) {
  // expected-error @+1 {{its bounds are not constants (runtime bounds are not supported yet)}}
  tir.for %k = 0 to %n annotations {software_pipeline_order = [0], software_pipeline_stage = [0]} {
    tir.block "load"(%v = spatial(%n, %k)) {
      %0 = tir.load %A[%v] : memref<?xf32>
      tir.store %0, %B[%v] : memref<?xf32>
    }
  }
  return
}

// -----

// A use of the tile in an earlier stage than its load (TVM's rule).
func.func @use_before_load(%A: memref<16xf32>, %B: memref<16xf32>, %C: memref<16xf32>) {
  // expected-error @+1 {{statement 1 ('use', stage 0, order 1) reads buffer 'parameter #1' after statement 0 ('load', stage 1, order 0) writes it in the same iteration, but would run before it}}
  tir.for %k = 0 to 4 annotations {software_pipeline_order = [0, 1], software_pipeline_stage = [1, 0]} {
    tir.for %x = 0 to 4 {
      tir.block "load"(%v = spatial(16, %k * 4 + %x)) {
        %0 = tir.load %A[%v] : memref<16xf32>
        tir.store %0, %B[%v] : memref<16xf32>
      }
    }
    tir.for %x = 0 to 4 {
      tir.block "use"(%v = spatial(16, %k * 4 + %x)) {
        %0 = tir.load %B[%v] : memref<16xf32>
        tir.store %0, %C[%v] : memref<16xf32>
      }
    }
  }
  return
}

// -----

// In one stage, an order that puts the use first.
func.func @same_stage_reordered(%A: memref<16xf32>, %B: memref<16xf32>, %C: memref<16xf32>) {
  // expected-error @+1 {{statement 1 ('use', stage 0, order 0) reads buffer 'parameter #1' after statement 0 ('load', stage 0, order 1) writes it in the same iteration}}
  tir.for %k = 0 to 4 annotations {software_pipeline_order = [1, 0], software_pipeline_stage = [0, 0]} {
    tir.for %x = 0 to 4 {
      tir.block "load"(%v = spatial(16, %k * 4 + %x)) {
        %0 = tir.load %A[%v] : memref<16xf32>
        tir.store %0, %B[%v] : memref<16xf32>
      }
    }
    tir.for %x = 0 to 4 {
      tir.block "use"(%v = spatial(16, %k * 4 + %x)) {
        %0 = tir.load %B[%v] : memref<16xf32>
        tir.store %0, %C[%v] : memref<16xf32>
      }
    }
  }
  return
}

// -----

// A write after a read is ordered too (TVM checks reads after writes
// only): the overwrite may not run before the read.
func.func @overwrite_first(%A: memref<16xf32>, %B: memref<16xf32>, %C: memref<16xf32>) {
  // expected-error @+1 {{statement 1 ('overwrite', stage 0, order 1) writes buffer 'parameter #1' after statement 0 ('read', stage 1, order 0) reads it in the same iteration, but would run before it}}
  tir.for %k = 0 to 4 annotations {software_pipeline_order = [0, 1], software_pipeline_stage = [1, 0]} {
    tir.for %x = 0 to 4 {
      tir.block "read"(%v = spatial(16, %k * 4 + %x)) {
        %0 = tir.load %B[%v] : memref<16xf32>
        tir.store %0, %C[%v] : memref<16xf32>
      }
    }
    tir.for %x = 0 to 4 {
      tir.block "overwrite"(%v = spatial(16, %k * 4 + %x)) {
        %0 = tir.load %A[%v] : memref<16xf32>
        tir.store %0, %B[%v] : memref<16xf32>
      }
    }
  }
  return
}

// -----

// One element that every iteration writes, then reads in a later stage:
// iteration k + 1's write would land before iteration k's read (TVM
// accepts this and computes something else).
func.func @shared_element(%A: memref<16xf32>, %B: memref<4xf32>) {
  %t = tir.alloc_buffer : memref<1xf32>
  // expected-error @+1 {{statement 1 ('use', stage 1, order 1) reads buffer 't', and statement 0 ('put', stage 0, order 0) writes it in a later iteration, but the pipeline would run it before: their parts of the buffer may overlap between iterations}}
  tir.for %k = 0 to 4 annotations {software_pipeline_order = [0, 1], software_pipeline_stage = [0, 1]} {
    tir.block "put"(%v = spatial(4, %k)) {
      %c0 = arith.constant 0 : index
      %0 = tir.load %A[%v * 4] : memref<16xf32>
      tir.store %0, %t[%c0] : memref<1xf32>
    }
    tir.block "use"(%v = spatial(4, %k)) {
      %c0 = arith.constant 0 : index
      %0 = tir.load %t[%c0] : memref<1xf32>
      tir.store %0, %B[%v] : memref<4xf32>
    }
  }
  return
}

// -----

// A pipelined loop directly in the body of another would turn into
// several statements of it.
func.func @nested_statement(%A: memref<16xf32>, %B: memref<16xf32>) {
  tir.for %o = 0 to 2 annotations {software_pipeline_order = [0], software_pipeline_stage = [0]} {
    // expected-error @+1 {{loop 'k' cannot be software-pipelined: it is a statement of pipelined loop 'o'}}
    tir.for %k = 0 to 2 annotations {software_pipeline_order = [0], software_pipeline_stage = [0]} {
      tir.for %x = 0 to 4 {
        tir.block "load"(%v = spatial(16, %o * 8 + %k * 4 + %x)) {
          %0 = tir.load %A[%v] : memref<16xf32>
          tir.store %0, %B[%v] : memref<16xf32>
        }
      }
    }
  }
  return
}

// -----

// An access through a view (expand_shape) is an access of the buffer: the
// use may not move before the write.
func.func @through_a_view(%A: memref<4xf32>, %B: memref<4xf32>, %O: memref<4xf32>) {
  %Bv = memref.expand_shape %B [[0, 1]] output_shape [4, 1] : memref<4xf32> into memref<4x1xf32>
  // expected-error @+1 {{statement 1 ('consume', stage 0, order 0) reads buffer 'parameter #1' after statement 0 ('produce', stage 0, order 1) writes it in the same iteration}}
  tir.for %k = 0 to 4 annotations {software_pipeline_order = [1, 0], software_pipeline_stage = [0, 0]} {
    tir.block "produce"(%v = spatial(4, %k)) {
      %0 = tir.load %A[%v] : memref<4xf32>
      tir.store %0, %B[%v] : memref<4xf32>
    }
    tir.block "consume"(%v = spatial(4, %k)) {
      %c0 = arith.constant 0 : index
      %0 = tir.load %Bv[%v, %c0] : memref<4x1xf32>
      tir.store %0, %O[%v] : memref<4xf32>
    }
  }
  return
}

// -----

// A buffer given to a call (unknown effects): the part of it the call
// touches is unknown, so its writer may not run ahead of a later reader.
func.func @opaque_call(%A: memref<4xf32>, %S: memref<4xf32>, %O: memref<4xf32>) {
  // expected-error @+1 {{statement 1 ('consume', stage 1, order 1) reads buffer 'parameter #1', and statement 0 ('clobber', stage 0, order 0) writes it in a later iteration, but the pipeline would run it before: the parts of the buffer they touch cannot be bounded (it is given to 'tir.call')}}
  tir.for %k = 0 to 4 annotations {software_pipeline_order = [0, 1], software_pipeline_stage = [0, 1]} {
    tir.block "clobber"(%v = spatial(4, %k)) {
      tir.call "clobber_all"(%S) : (memref<4xf32>) -> ()
    }
    tir.block "consume"(%v = spatial(4, %k)) {
      %0 = tir.load %S[%v] : memref<4xf32>
      tir.store %0, %O[%v] : memref<4xf32>
    }
  }
  return
}

// -----

// A call given no buffer may touch any memory: it keeps its place among
// the statements that access memory.
func.func @opaque_call_no_buffer(%A: memref<4xf32>, %O: memref<4xf32>) {
  // expected-error @+1 {{statement 1 ('consume', stage 0, order 0) reads buffer 'parameter #0' after statement 0 ('sync', stage 0, order 1) writes it in the same iteration}}
  tir.for %k = 0 to 4 annotations {software_pipeline_order = [1, 0], software_pipeline_stage = [0, 0]} {
    tir.block "sync"(%v = spatial(4, %k)) {
      tir.call "tvm_storage_sync"("shared") : () -> ()
    }
    tir.block "consume"(%v = spatial(4, %k)) {
      %0 = tir.load %A[%v] : memref<4xf32>
      tir.store %0, %O[%v] : memref<4xf32>
    }
  }
  return
}

// -----

func.func @stage_too_large(%A: memref<4xf32>, %O: memref<4xf32>) {
  // expected-error @+1 {{stage 100 of statement 0 is over 64 (the prologue and epilogue are written out, one step per stage)}}
  tir.for %k = 0 to 4 annotations {software_pipeline_order = [0], software_pipeline_stage = [100]} {
    tir.block "copy"(%v = spatial(4, %k)) {
      %0 = tir.load %A[%v] : memref<4xf32>
      tir.store %0, %O[%v] : memref<4xf32>
    }
  }
  return
}

// -----

// Buffers of one iteration needing 2 and 3 copies would unroll the steady
// loop 6 times; 2, 3, 5 and 7 copies 210 times, over the limit.
func.func @too_many_copies(%A: memref<100xf32>, %B: memref<100xf32>) {
  // expected-error @+1 {{its buffers of one iteration need 2, 3, 5, 7 copies, which would unroll the steady loop 210 times (at most 16)}}
  tir.for %k = 0 to 100 annotations {software_pipeline_order = [0, 1, 2, 3, 4], software_pipeline_stage = [5, 4, 2, 0, 6]} {
    %T0 = memref.alloca() : memref<1xf32>
    %T1 = memref.alloca() : memref<1xf32>
    %T2 = memref.alloca() : memref<1xf32>
    %T3 = memref.alloca() : memref<1xf32>
    tir.block "w0"(%v = spatial(100, %k)) {
      %c0 = arith.constant 0 : index
      %0 = tir.load %A[%v] : memref<100xf32>
      tir.store %0, %T0[%c0] : memref<1xf32>
    }
    tir.block "w1"(%v = spatial(100, %k)) {
      %c0 = arith.constant 0 : index
      %0 = tir.load %A[%v] : memref<100xf32>
      tir.store %0, %T1[%c0] : memref<1xf32>
    }
    tir.block "w2"(%v = spatial(100, %k)) {
      %c0 = arith.constant 0 : index
      %0 = tir.load %A[%v] : memref<100xf32>
      tir.store %0, %T2[%c0] : memref<1xf32>
    }
    tir.block "w3"(%v = spatial(100, %k)) {
      %c0 = arith.constant 0 : index
      %0 = tir.load %A[%v] : memref<100xf32>
      tir.store %0, %T3[%c0] : memref<1xf32>
    }
    tir.block "use"(%v = spatial(100, %k)) {
      %c0 = arith.constant 0 : index
      %r0 = tir.load %T0[%c0] : memref<1xf32>
      %r1 = tir.load %T1[%c0] : memref<1xf32>
      %r2 = tir.load %T2[%c0] : memref<1xf32>
      %r3 = tir.load %T3[%c0] : memref<1xf32>
      %s0 = arith.addf %r0, %r1 : f32
      %s1 = arith.addf %r2, %r3 : f32
      %s2 = arith.addf %s0, %s1 : f32
      tir.store %s2, %B[%v] : memref<100xf32>
    }
  }
  return
}
