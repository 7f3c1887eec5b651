// convert-tir-to-scf's rule for loops whose iterations run at once
// (parallel, vectorized, bound to a thread axis other than threadIdx): they
// feed no reduce variable, since the reduction across them would race. The
// IR may hold such a loop, as TVM's does (tensorir-rules.mlir parses one);
// the schedule primitives that make loop kinds refuse to create it, and
// this lowering refuses to compile it.
// RUN: tir-opt %s --convert-tir-to-scf -split-input-file -verify-diagnostics

// A parallel loop feeding a reduce variable
// (TVMScript's T.parallel over a reduction).
func.func @parallel_reduction(%A: memref<8x4xf32>, %B: memref<8xf32>) {
  tir.for %i = 0 to 8 {
    // expected-error @below {{'tir.for' op is parallel, so its iterations run at once, but it feeds reduce variable 'vk' of block 'B' (a reduction across the iterations would race; only threadIdx loops may reduce)}}
    tir.for %k = 0 to 4 parallel {
      // expected-note @below {{the block}}
      tir.block "B"(%vi = spatial(8, %i), %vk = reduce(4, %k)) {
        %b = tir.load %B[%vi] : memref<8xf32>
        %a = tir.load %A[%vi, %vk] : memref<8x4xf32>
        %s = arith.addf %b, %a : f32
        tir.store %s, %B[%vi] : memref<8xf32>
      }
    }
  }
  return
}

// -----

// The same for a vectorized loop that feeds a spatial and a reduce variable
// (lanes of one point would scatter to the same element).
func.func @vectorized_fused_reduction(%A: memref<2x4xf32>, %B: memref<2xf32>) {
  // expected-error @below {{'tir.for' op is vectorized, so its iterations run at once, but it feeds reduce variable 'vk'}}
  tir.for %f = 0 to 8 vectorized {
    // expected-note @below {{the block}}
    tir.block "B"(%vj = spatial(2, %f floordiv 4), %vk = reduce(4, %f mod 4)) {
      %b = tir.load %B[%vj] : memref<2xf32>
      %a = tir.load %A[%vj, %vk] : memref<2x4xf32>
      %s = arith.addf %b, %a : f32
      tir.store %s, %B[%vj] : memref<2xf32>
    }
  }
  return
}

// -----

// And for blockIdx: only threadIdx loops reduce across their iterations
// (lowering makes that a cross-thread reduction).
func.func @block_bound_reduction(%A: memref<32xf32>, %B: memref<1xf32>) {
  // expected-error @below {{'tir.for' op is bound to blockIdx.x, so its iterations run at once, but it feeds reduce variable 'vk'}}
  tir.for %k = 0 to 32 thread_binding<"blockIdx.x"> {
    // expected-note @below {{the block}}
    tir.block "B"(%vk = reduce(32, %k)) {
      %b = tir.load %B[0] : memref<1xf32>
      %a = tir.load %A[%vk] : memref<32xf32>
      %s = arith.addf %b, %a : f32
      tir.store %s, %B[0] : memref<1xf32>
    }
  }
  return
}

